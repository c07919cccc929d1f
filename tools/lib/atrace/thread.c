// SPDX-License-Identifier: LGPL-2.1
/*
 * The library's helper threads (the tag file's watcher, the marker's
 * follower of vtrace's target buffer): apart from both, so that neither
 * depends on the other for them.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "atrace-local.h"

/**
 * atrace_spawn - start a detached helper thread
 * @fn: its function
 *
 * The thread blocks every signal (they are the application's) and has a
 * small stack.
 *
 * Return: true when it runs.
 */
bool atrace_spawn(void *(*fn)(void *))
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	bool ok;

	if (pthread_attr_init(&attr))
		return false;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ok = !pthread_create(&thread, &attr, fn, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return ok;
}
