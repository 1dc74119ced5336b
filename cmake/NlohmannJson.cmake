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
target_compile_definitions(speccalc_json INTERFACE JSON_NOEXCEPTION=0)
