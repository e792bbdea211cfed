# `cmake --install build --prefix P` installs the area libraries, the public headers (the HLS
# simulation headers among them), the `sadsl` program and a CMake package, so that a user's
# project says `find_package(sadsl)` and links `sadsl::sadsl` (or single areas, e.g. sadsl::tune).
include(CMakePackageConfigHelpers)
get_property(SADSL_AREA_TARGETS GLOBAL PROPERTY SADSL_AREAS)
install(TARGETS ${SADSL_AREA_TARGETS} sadsl sadsl_cli EXPORT sadslTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/sadsl DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(SADSL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/sadsl)
install(EXPORT sadslTargets NAMESPACE sadsl:: DESTINATION ${SADSL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/sadslConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/sadslConfig.cmake INSTALL_DESTINATION ${SADSL_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/sadslConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/sadslConfig.cmake ${PROJECT_BINARY_DIR}/sadslConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/SadslDependencies.cmake ${PROJECT_SOURCE_DIR}/cmake/SadslKernel.cmake
        DESTINATION ${SADSL_CMAKE_DIR})
