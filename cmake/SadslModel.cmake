# The user-facing functions (sadsl_add_model, sadsl_add_kernel), installed with the package.
include(${CMAKE_CURRENT_LIST_DIR}/SadslKernel.cmake)

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
