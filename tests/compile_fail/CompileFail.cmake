# Each source here must fail to compile with the named diagnostic (one readable static_assert line).
set(_cf_dir ${CMAKE_CURRENT_LIST_DIR})
function(weft_compile_fail name regex)
  add_executable(cf_${name} EXCLUDE_FROM_ALL ${_cf_dir}/${name}.cpp)
  target_link_libraries(cf_${name} PRIVATE Weft::weft)
  weft_compile_for_backend(cf_${name})
  add_test(NAME compile_fail_${name}
           COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target cf_${name})
  set_tests_properties(compile_fail_${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}" RESOURCE_LOCK weft_build
                                                       TIMEOUT 300)
endfunction()

weft_compile_fail(for_wrong_signature "parallel_for over a RangePolicy: the functor must be callable as f\\(i\\)")
weft_compile_fail(md_wrong_arity "MDRangePolicy<Rank<N>>: the functor must take N indices")
weft_compile_fail(team_wrong_signature "TeamPolicy: the functor must be callable as f\\(const member_type& member\\)")
weft_compile_fail(reduce_wrong_reducer_type "parallel_reduce: the functor cannot be called as f\\(i..., value&\\)")
weft_compile_fail(reduce_const_result "parallel_reduce: a result argument is const")
weft_compile_fail(scan_wrong_signature "parallel_scan: the functor must be callable as f\\(i, value_type& update, bool final\\)")
weft_compile_fail(view_extent_count "weft::View: give exactly the runtime extents")
weft_compile_fail(subview_arg_count "weft::subview: give one argument")
weft_compile_fail(deep_copy_rank "weft::deep_copy: the two views have different ranks")
weft_compile_fail(epilogue_wrong_signature "matrix_product: the epilogue must be callable as f\\(i, j, ab\\)")
target_link_libraries(cf_epilogue_wrong_signature PRIVATE Weft::linalg)
weft_compile_fail(kokkos_not_provided
                  "Kokkos::MemoryPool is not provided by Weft's Kokkos compatibility layer \\(docs/kokkos.md")
target_link_libraries(cf_kokkos_not_provided PRIVATE weft_kokkos_headers)
weft_compile_fail(kokkos_header_not_provided
                  "Kokkos_TaskScheduler.hpp: Kokkos::TaskScheduler is not provided by Weft's Kokkos")
target_link_libraries(cf_kokkos_header_not_provided PRIVATE weft_kokkos_headers)
