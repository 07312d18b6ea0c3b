// The registry of Weft's runtime settings: every WEFT_* environment variable and --weft-* option, with its type,
// accepted values, default and one line of help (core/src/settings.cpp). Each is parsed from here: a bad value is
// a weft::Error naming the variable and the accepted values, raised by weft::initialize (which checks every
// registered variable that is set) or by the first read. --weft-help and the README's settings table come from it.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

namespace weft::impl {

enum class SettingKind {
  integer,  // a decimal integer in [lo, hi]
  flag,     // 1/on/true/yes or 0/off/false/no (any case)
  choice,   // one of `choices`
  text,     // any non-empty text (paths, library lists)
  custom,   // checked by `check`
  refused   // a Kokkos variable Weft does not read: set at all, it is an error saying what to use instead (`values`)
};

struct Setting {
  const char* name;    // the environment variable, e.g. WEFT_EMU_STREAMS
  const char* option;  // the command-line option (--weft-num-threads), or "" for environment only
  SettingKind kind;
  const char* values;                    // the accepted values as help and errors say them ("lazy, concurrent or sync")
  const char* fallback;                  // the default, as text
  const char* help;                      // one line
  long lo = 0, hi = 0;                   // integer: the range
  const char* const* choices = nullptr;  // choice: the accepted spellings, null-terminated
  bool (*check)(std::string_view) = nullptr;  // custom: whether a value is accepted
};

/// Every registered setting, ending with one whose name is null.
const Setting* settings_registry();
/// The registered setting `name` (an environment variable or an option); nullptr when none.
const Setting* find_setting(std::string_view name);

/// Raises weft::Error "<where>=<value> is not known; use <values> (<help>)" unless `value` is accepted by `s`;
/// `where` is the variable or the option the value came from.
void check_setting_value(const Setting& s, std::string_view where, std::string_view value);
/// Checks every registered variable that is set in the environment (weft::initialize calls it first).
void check_environment_settings();

/// The value of the registered variable `name`, checked, or `fallback` when it is unset or empty.
long env_integer(const char* name, long fallback);
bool env_flag(const char* name, bool fallback);
/// Whether a flag's value, already checked (check_setting_value), says on: 1, on, true or yes in any case.
bool flag_is_on(std::string_view value);
/// The index in the setting's choices of the value of `name`, or `fallback` when unset or empty.
int env_choice(const char* name, int fallback);
/// The text of `name`, checked ("" when unset).
std::string env_text(const char* name);

/// The options and variables as --weft-help prints them.
void print_settings_help(std::ostream& os);
/// The Markdown table of the README's "Runtime settings" (tests/lint/settings_table.sh compares the two).
void print_settings_table(std::ostream& os);

}  // namespace weft::impl
