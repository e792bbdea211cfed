# The Debian packages sadsl builds against (scripts/setup.sh installs them). Included by the
# build and, after installation, by sadslConfig.cmake, so that a user's project finds the same.
find_package(PkgConfig REQUIRED)
if(NOT TARGET PkgConfig::ISL)
  pkg_check_modules(ISL REQUIRED IMPORTED_TARGET GLOBAL isl>=0.25)
endif()
if(NOT TARGET PkgConfig::IPOPT)
  pkg_check_modules(IPOPT REQUIRED IMPORTED_TARGET GLOBAL ipopt>=3.11)
endif()
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(fmt 9 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(Threads REQUIRED)
