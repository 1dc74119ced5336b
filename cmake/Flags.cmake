# Compiler flags, set per target: every target the project builds calls speccalc_target_flags
# once (warnings as errors, and the sanitizer or fuzzer instrumentation of the build mode).
# The determinism flags belong to the core target (core/CMakeLists.txt); the WASM size/speed
# flags to wasm/CMakeLists.txt.
option(SPECCALC_WERROR "Treat compiler warnings as errors (-Werror)" ON)

function(speccalc_target_flags target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(SPECCALC_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(SPECCALC_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                           -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(SPECCALC_BUILD_FUZZ)
    # Coverage for libFuzzer plus the sanitizers; fuzz/CMakeLists.txt links libFuzzer's main.
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
                           -fno-sanitize-recover=all -fno-omit-frame-pointer)
  endif()
endfunction()

# Source lists are explicit; this catches a file added to a folder but not to its list (which
# would otherwise show up later as an undefined symbol or a test that never runs).
function(speccalc_check_listed pattern)
  file(GLOB _on_disk CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/${pattern})
  list(REMOVE_ITEM _on_disk ${ARGN})
  if(_on_disk)
    message(FATAL_ERROR "${CMAKE_CURRENT_SOURCE_DIR}: not in its CMakeLists.txt source list: ${_on_disk}")
  endif()
endfunction()
