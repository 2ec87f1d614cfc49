#ifndef C_SPAWN_ACTIONS_H
#define C_SPAWN_ACTIONS_H

#include <spawn.h>

/// Adds to `actions` the closing of every descriptor from `lowest` up, in the
/// child only: glibc's `posix_spawn_file_actions_addclosefrom_np`, which its
/// header declares only for `_GNU_SOURCE` and so Swift's Glibc module hides.
/// Returns 0, or an error number.
int spawn_actions_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
