#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver with the command line and `test`, when libFuzzer
/// is linked in (the sanitized build of `Tests/Fuzz/run`); returns -1 at once
/// in a plain build, which has no libFuzzer.
int lab_fuzzer_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

#endif
