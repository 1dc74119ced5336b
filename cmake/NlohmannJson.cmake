# nlohmann_json as header-only target `speccalc_json`.
# Under emcmake, find_package cannot see /usr/include, and adding /usr/include as a system
# include drags glibc headers into the wasm build; so we expose only a `nlohmann` symlink.
find_path(SPECCALC_NLOHMANN_DIR nlohmann/json.hpp PATHS /usr/include /usr/local/include
          NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(_shim ${CMAKE_BINARY_DIR}/nlohmann_shim)
file(MAKE_DIRECTORY ${_shim})
if(NOT EXISTS ${_shim}/nlohmann)
  file(CREATE_LINK ${SPECCALC_NLOHMANN_DIR}/nlohmann ${_shim}/nlohmann SYMBOLIC)
endif()
add_library(speccalc_json INTERFACE)
target_include_directories(speccalc_json SYSTEM INTERFACE ${_shim})
# Exceptions off in nlohmann, in both builds: its throw sites become abort(). nlohmann only tests
# whether JSON_NOEXCEPTION is defined, so the former "JSON_NOEXCEPTION=0" meant the same while
# reading as "exceptions on". Core never lets nlohmann throw (non-throwing parse, checked types
# and UTF-8 before dump()); a bug that would throw aborts natively (the fuzzers and sanitizers
# catch it) exactly as it traps in WASM (see wasm/CMakeLists.txt).
target_compile_definitions(speccalc_json INTERFACE JSON_NOEXCEPTION)
