// The kernel program of sadsl_add_kernel(): writes the performance models of the consumer's kernel
// as C++ at build time.
#include "consumer_kernel.hpp"

int main(int argc, char** argv) { return sadsl::kernel_program_main(consumer_mm(), argc, argv); }
