# CMake toolchain for the WASM build (CMakePresets.json "wasm"): finds the Emscripten that
# provides `emcc` on PATH (Debian's package, emsdk or a source checkout) and uses that
# installation's own toolchain file, so the presets carry no machine paths.
find_program(SPECCALC_EMCC emcc)
if(NOT SPECCALC_EMCC)
  message(FATAL_ERROR "emcc not found on PATH (Debian: apt-get install emscripten)")
endif()
get_filename_component(_speccalc_emcc_real "${SPECCALC_EMCC}" REALPATH)
get_filename_component(_speccalc_emscripten_root "${_speccalc_emcc_real}" DIRECTORY)
include("${_speccalc_emscripten_root}/cmake/Modules/Platform/Emscripten.cmake")
