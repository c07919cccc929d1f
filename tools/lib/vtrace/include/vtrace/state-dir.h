/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * vtrace's state directory: where every run keeps what must outlive it
 * (which instances vtrace created, the session registry, a background
 * recording's log, tag files). One place for everything, and one check of
 * it: files in it are opened relative to a directory descriptor that was
 * proven to be ours.
 */
#ifndef _VTRACE_STATE_DIR_H
#define _VTRACE_STATE_DIR_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The preferred place, and the variable that overrides it.
 * vtrace_state_dir() says which directory is in use (systems without /run
 * have another).
 */
#define VTRACE_STATE_DIR "/run/vtrace"
#define VTRACE_STATE_DIR_ENV "VTRACE_STATE_DIR"

/**
 * enum vtrace_state_dir_fault - why a state directory is not trusted
 * @VTRACE_STATE_DIR_OK: it is ours
 * @VTRACE_STATE_DIR_NOT_DIR: not a directory, or a symbolic link
 * @VTRACE_STATE_DIR_FOREIGN: owned by a user other than us and root
 * @VTRACE_STATE_DIR_WRITABLE: group or others may write to it
 */
enum vtrace_state_dir_fault {
	VTRACE_STATE_DIR_OK,
	VTRACE_STATE_DIR_NOT_DIR,
	VTRACE_STATE_DIR_FOREIGN,
	VTRACE_STATE_DIR_WRITABLE,
};

const char *vtrace_state_dir(void);
int vtrace_state_dir_open(bool create, int *dirfd,
			  enum vtrace_state_dir_fault *fault);
const char *vtrace_state_dir_fault_str(enum vtrace_state_dir_fault fault);
int vtrace_state_file_open(const char *name, int flags, mode_t mode, int *fd);
int vtrace_state_file_create(const char *name, mode_t mode, int *fd);

#endif /* _VTRACE_STATE_DIR_H */
