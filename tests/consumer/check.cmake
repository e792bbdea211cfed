# Installs the build tree into a fresh prefix, then configures, builds and runs the consumer
# project against it. Arguments: -DBUILD=<sadsl build dir> -DSOURCE=<this folder>
# -DWORK=<scratch dir> -DDESCRIPTORS=<folder> -DSANITIZE=<0 or 1: the build tree's SADSL_SANITIZE>.
file(REMOVE_RECURSE ${WORK})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
# Libraries built with the sanitizers link only into programs built with them.
set(sanitize_flags)
if(SANITIZE)
  set(sanitize_flags "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
step(${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -G Ninja -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_PREFIX_PATH=${WORK}/prefix ${sanitize_flags})
step(${CMAKE_COMMAND} --build ${WORK}/build)
# Tuned with the models compiled into it: no compiler at run time.
step(${CMAKE_COMMAND} -E env SADSL_CXX=${WORK}/no-compiler SADSL_CACHE_DIR=${WORK}/cache ${WORK}/build/consumer_tuned)
message("${output}")
step(${WORK}/build/consumer ${DESCRIPTORS})
message("${output}")
file(REMOVE_RECURSE ${WORK})
