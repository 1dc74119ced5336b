# Embeds core/data/*.json into a generated C++ source so both builds carry the same
# tables (one source of truth, no copy in JavaScript). Each file becomes
#   std::string_view speccalc::data::<name>()   (name: file stem, '-' -> '_').
function(speccalc_embed_data out_cpp)
  file(GLOB _files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/core/data/*.json)
  list(SORT _files)
  string(REPLACE ";" "|" _joined "${_files}")  # a ';' would split the command line
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} "-DFILES=${_joined}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_data_script.cmake
    DEPENDS ${_files} ${PROJECT_SOURCE_DIR}/cmake/embed_data_script.cmake
    COMMENT "Embedding core/data tables" VERBATIM)
endfunction()
