#pragma once
// Umbrella header: everything a user of sadsl needs.
#include "sadsl/error.hpp"
