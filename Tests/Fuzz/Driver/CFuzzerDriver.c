#include "CFuzzerDriver.h"

// libFuzzer's entry for programs with a main of their own (SwiftPM gives
// every executable one). Weak: a plain build links no libFuzzer, and the
// fuzz build names it on the linker's command line so it is pulled in.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size))
    __attribute__((weak));

int lab_fuzzer_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size)) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, test);
}
