# Embeds the core/data tables the core reads into a generated C++ source so both builds carry
# the same tables (one source of truth, no copy in JavaScript). Each file becomes
#   std::string_view speccalc::data::<name>()   (name: file stem, '-' -> '_').
# An explicit list: empirical.json and drafts.json stay in core/data as cited sources that the
# presets, docs and scripts quote, but no core code reads them, so they are not compiled in
# (the published heads' repositories are models.json `heads`, one table).
set(SPECCALC_EMBEDDED_DATA models hardware runtimes published medusa-head-accuracy engine-measurements
    workloads published-tau validation-bands)
# published.json (1.1 MB, about 55 KB of the page's gzipped first load) is left out of the WASM
# build: its accessor returns an empty view there, and the page fetches the file only when a
# command needs it (speccalc::Data, wasm/speccalc-api.mjs).
if(EMSCRIPTEN)
  set(_speccalc_embed_published_default OFF)
else()
  set(_speccalc_embed_published_default ON)
endif()
option(SPECCALC_EMBED_PUBLISHED "Compile core/data/published.json into the core"
       ${_speccalc_embed_published_default})

function(speccalc_embed_data out_cpp)
  set(_files)
  foreach(_name IN LISTS SPECCALC_EMBEDDED_DATA)
    list(APPEND _files ${PROJECT_SOURCE_DIR}/core/data/${_name}.json)
  endforeach()
  string(REPLACE ";" "|" _joined "${_files}")  # a ';' would split the command line
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} "-DFILES=${_joined}"
            -DEMBED_PUBLISHED=${SPECCALC_EMBED_PUBLISHED}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_data_script.cmake
    DEPENDS ${_files} ${PROJECT_SOURCE_DIR}/cmake/embed_data_script.cmake
    COMMENT "Embedding core/data tables" VERBATIM)
endfunction()
