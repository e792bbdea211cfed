# Performance models compiled ahead of time into a user's program. Part of the installed package
# (find_package(sadsl) includes it) and of the build tree.
#
# The generated sources register each model by its hash; sadsl::model::evaluator, compile() and
# the tuner then use the compiled code instead of compiling at run time. <target> must be an
# executable (or an OBJECT library linked into one): a static library would let the linker drop
# the registrations.

# The `sadsl` program: this build's, or the installed package's.
function(_sadsl_cli_target out)
  if(TARGET sadsl_cli)
    set(${out} sadsl_cli PARENT_SCOPE)
  else()
    set(${out} sadsl::sadsl_cli PARENT_SCOPE)
  endif()
endfunction()

# sadsl_add_model(<target> NAME <name> DESCRIPTOR <descriptor.json>)
#
# One model from an AutoSA descriptor: at build time `sadsl emit` writes its C++ source (only
# rewritten when it changes), which is compiled with <target>.
function(sadsl_add_model target)
  cmake_parse_arguments(ARG "" "NAME;DESCRIPTOR" "" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_DESCRIPTOR)
    message(FATAL_ERROR "sadsl_add_model(${target}): NAME and DESCRIPTOR are required")
  endif()
  _sadsl_cli_target(cli)
  set(source ${CMAKE_CURRENT_BINARY_DIR}/sadsl_models/${ARG_NAME}.cpp)
  add_custom_command(
    OUTPUT ${source}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/sadsl_models
    COMMAND $<TARGET_FILE:${cli}> emit --descriptor ${ARG_DESCRIPTOR} --name ${ARG_NAME} --register --output ${source}
    DEPENDS ${cli} ${ARG_DESCRIPTOR}
    COMMENT "Generating C++ for model ${ARG_NAME}"
    VERBATIM)
  # No FMA contraction: compiled and interpreted results must be bit-identical. GCC need not clone
  # the evaluation functions for the single point's row stride of 0 (a third of the compile time
  # of the AVX-512 path, batches as fast).
  set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off;$<$<CXX_COMPILER_ID:GNU>:-fno-ipa-cp-clone>")
  target_sources(${target} PRIVATE ${source})
endfunction()

# sadsl_add_kernel(<target> PROGRAM <kernel program> [NAME <name>])
#
# sadsl's own models of every design of a kernel. <kernel program> is an executable target of the
# user's project whose main() describes the kernel and returns sadsl::kernel_program_main(kernel,
# argc, argv) (sadsl/driver/ahead_of_time.hpp); at build time it writes the models' C++ source
# (one file, rewritten only when it changes), which is compiled with <target>.
function(sadsl_add_kernel target)
  cmake_parse_arguments(ARG "" "PROGRAM;NAME" "" ${ARGN})
  if(NOT ARG_PROGRAM)
    message(FATAL_ERROR "sadsl_add_kernel(${target}): PROGRAM (the kernel program's target) is required")
  endif()
  if(NOT TARGET ${ARG_PROGRAM})
    message(FATAL_ERROR "sadsl_add_kernel(${target}): PROGRAM ${ARG_PROGRAM} is not a target of this project")
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME ${ARG_PROGRAM})
  endif()
  set(source ${CMAKE_CURRENT_BINARY_DIR}/sadsl_kernels/${ARG_NAME}_models.cpp)
  add_custom_command(
    OUTPUT ${source}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/sadsl_kernels
    COMMAND $<TARGET_FILE:${ARG_PROGRAM}> ${source}
    DEPENDS ${ARG_PROGRAM}
    COMMENT "Generating the performance models of kernel program ${ARG_NAME}"
    VERBATIM)
  # As sadsl_add_model's sources.
  set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off;$<$<CXX_COMPILER_ID:GNU>:-fno-ipa-cp-clone>")
  target_sources(${target} PRIVATE ${source})
endfunction()
