# sadsl_add_model(<target> NAME <name> DESCRIPTOR <descriptor.json>)
#
# Compiles a performance model ahead of time into <target> (an executable, library or OBJECT
# library defined in the calling directory): at build time `sadsl emit` writes the model's C++
# source (only rewritten when it changes), which is compiled with the target. The generated code
# registers itself, and sadsl::model::evaluator then uses it instead of compiling at run time.
function(sadsl_add_model target)
  cmake_parse_arguments(ARG "" "NAME;DESCRIPTOR" "" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_DESCRIPTOR)
    message(FATAL_ERROR "sadsl_add_model(${target}): NAME and DESCRIPTOR are required")
  endif()
  set(source ${CMAKE_CURRENT_BINARY_DIR}/sadsl_models/${ARG_NAME}.cpp)
  add_custom_command(
    OUTPUT ${source}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/sadsl_models
    COMMAND $<TARGET_FILE:sadsl_cli> emit --descriptor ${ARG_DESCRIPTOR} --name ${ARG_NAME} --register --output ${source}
    DEPENDS sadsl_cli ${ARG_DESCRIPTOR}
    COMMENT "Generating C++ for model ${ARG_NAME}"
    VERBATIM)
  # No FMA contraction: compiled and interpreted results must be bit-identical.
  set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
  target_sources(${target} PRIVATE ${source})
endfunction()

# The Odyssey reference models (18 MM + 30 CNN descriptors), compiled ahead of time for the
# tests and benchmarks. An OBJECT library, so every registration object is linked.
set(SADSL_ODYSSEY_DESCRIPTORS ${PROJECT_SOURCE_DIR}/../shared/reference/odyssey/descriptors)
if((SADSL_BUILD_TESTS OR SADSL_BUILD_BENCH) AND EXISTS ${SADSL_ODYSSEY_DESCRIPTORS})
  add_library(sadsl_odyssey_models OBJECT)
  target_link_libraries(sadsl_odyssey_models PUBLIC sadsl::model)
  foreach(kernel gemm cnn)
    file(GLOB descriptors ${SADSL_ODYSSEY_DESCRIPTORS}/${kernel}/*.json)
    foreach(descriptor ${descriptors})
      get_filename_component(design ${descriptor} NAME_WE)
      sadsl_add_model(sadsl_odyssey_models NAME ${kernel}_${design} DESCRIPTOR ${descriptor})
    endforeach()
  endforeach()

  # Tests and benchmarks are defined after this file is included: attach at the end. The model,
  # tune and knobs tests, every benchmark and example get the models, so searches run on compiled
  # code from the start.
  function(_sadsl_attach_odyssey_models)
    set(targets)
    foreach(dir ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests)
      if(EXISTS ${dir}/CMakeLists.txt)
        get_property(in_dir DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
        list(APPEND targets ${in_dir})
      endif()
    endforeach()
    foreach(target ${targets})
      if(target MATCHES "^(test_(model|tune|knobs)|bench_.*|example_.*)$")
        target_link_libraries(${target} PRIVATE sadsl_odyssey_models)
      endif()
    endforeach()
    if(TARGET bench_model_eval)
      target_compile_definitions(bench_model_eval PRIVATE
        SADSL_BENCH_DEFAULT_DESCRIPTOR="${SADSL_ODYSSEY_DESCRIPTORS}/gemm/kernel3_2.json")
    endif()
  endfunction()
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _sadsl_attach_odyssey_models)
endif()
