// Prints the settings registry as the README's Markdown table (tests/lint/settings_table.py compares the two).
#include <iostream>

#include <weft/impl/settings.hpp>

int main() {
  weft::impl::print_settings_table(std::cout);
  return 0;
}
