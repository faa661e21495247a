# Writes IN as a C++ raw string into OUT (see plateau_embed_data).
file(READ ${IN} content)
string(FIND "${content}" ")plateau_data\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter")
endif()
file(WRITE ${OUT} "#include <string_view>\nnamespace plateau::data::${SPACE} {\nextern const std::string_view k${IDENT};\nconst std::string_view k${IDENT} = R\"plateau_data(${content})plateau_data\";\n}\n")
