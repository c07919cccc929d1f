// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the state directory and the session registry in
 * tools/lib/vtrace: each Perfetto rule by exact return value and message,
 * recorders that are other processes (forked "holders" that register a
 * session and wait for SIGTERM like vtrace record does), a recorder killed
 * with SIGKILL, a fake entry naming an unrelated live process, and many
 * sessions started at once on one buffer.
 *
 * Needs no tracefs; the exclusive tests need root (they SKIP otherwise).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vtrace/session.h>
#include <vtrace/state-dir.h>

#include "../kselftest_harness.h"

#define RACERS 24

/* A holder's exit status when it was aborted, as vtrace record's. */
#define HOLDER_ABORTED 3

struct holder {
	pid_t pid;
	int from; /* start's return value, then the abort reason */
};

static char state[64];

static void fresh_state_dir(void)
{
	strcpy(state, "/tmp/vtrace-session-test.XXXXXX");
	if (!mkdtemp(state))
		abort();
	strcat(state, "/state");
	setenv(VTRACE_STATE_DIR_ENV, state, 1);
}

static void remove_state_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'", (int)strlen(state) - 6,
		 state);
	if (system(cmd))
		fprintf(stderr, "# cannot remove %s\n", state);
}

static int start(const char *name, const char *instance, unsigned int prio,
		 unsigned int features, struct vtrace_session **s, char *msg,
		 size_t size)
{
	struct vtrace_session_params p = {
		.name = name,
		.instance = instance,
		.output = "out.dat",
		.exclusive_prio = prio,
		.features = features,
		.abort_wait_ms = 5000,
	};
	struct vtrace_session_refused r;
	int ret;

	*s = NULL;
	ret = vtrace_session_start(&p, s, &r);
	if (msg)
		vtrace_session_refused_str(&r, msg, size);
	vtrace_session_refused_free(&r);
	return ret;
}

/*
 * A recorder in another process: registers, says how that went, then
 * waits for SIGTERM, says why it was stopped and ends its session.
 */
static struct holder spawn(const char *name, const char *instance,
			   unsigned int prio, int *ret)
{
	struct holder h = { 0 };
	struct vtrace_session *s;
	const char *why;
	sigset_t set;
	int fds[2], sig;

	if (pipe(fds))
		abort();
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	h.pid = fork();
	if (!h.pid) {
		close(fds[0]);
		*ret = start(name, instance, prio, 0, &s, NULL, 0);
		if (write(fds[1], ret, sizeof(*ret)) != sizeof(*ret) || *ret)
			_exit(1);
		sigwait(&set, &sig);
		why = vtrace_session_abort_reason(s);
		if (why && write(fds[1], why, strlen(why)) < 0)
			_exit(1);
		vtrace_session_end(s);
		_exit(why ? HOLDER_ABORTED : 0);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	close(fds[1]);
	h.from = fds[0];
	if (read(h.from, ret, sizeof(*ret)) != sizeof(*ret))
		*ret = -EPIPE;
	return h;
}

/* How the holder ended (its exit status) and why it was stopped. */
static int reap(struct holder *h, char *why, size_t size)
{
	ssize_t n;
	int status;

	n = read(h->from, why, size - 1);
	why[n > 0 ? n : 0] = '\0';
	close(h->from);
	if (waitpid(h->pid, &status, 0) != h->pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void stop_holder(struct holder *h)
{
	char why[256];

	kill(h->pid, SIGTERM);
	reap(h, why, sizeof(why));
}

/* Not exited yet (a zombie has); the status stays for reap(). */
static bool running(pid_t pid)
{
	siginfo_t info = { 0 };

	return !waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) &&
	       !info.si_pid;
}

FIXTURE(reg)
{
	int unused;
};

FIXTURE_SETUP(reg)
{
	fresh_state_dir();
}

FIXTURE_TEARDOWN(reg)
{
	remove_state_dir();
}

TEST_F(reg, state_dir_is_made_0755_and_opened_relative)
{
	struct stat st;
	int fd;

	ASSERT_EQ(0,
		  vtrace_state_file_open("tag", O_WRONLY | O_CREAT, 0644, &fd));
	close(fd);
	ASSERT_EQ(0, stat(state, &st));
	EXPECT_EQ(0755, st.st_mode & 07777);
	EXPECT_STREQ(state, vtrace_state_dir());
}

TEST_F(reg, state_dir_symlink_and_writable_dir_are_refused)
{
	enum vtrace_state_dir_fault fault;
	char target[80], victim[80];
	struct stat st;
	int vfd;
	int fd;

	snprintf(target, sizeof(target), "%s.real", state);
	ASSERT_EQ(0, mkdir(target, 0755));
	ASSERT_EQ(0, symlink(target, state));
	EXPECT_EQ(-ENOTDIR, vtrace_state_dir_open(true, &fd, &fault));
	EXPECT_EQ(VTRACE_STATE_DIR_NOT_DIR, fault);
	ASSERT_EQ(0, unlink(state));
	ASSERT_EQ(0, mkdir(state, 0755));
	ASSERT_EQ(0, chmod(state, 0777));
	EXPECT_EQ(-EPERM, vtrace_state_dir_open(true, &fd, &fault));
	EXPECT_EQ(VTRACE_STATE_DIR_WRITABLE, fault);
	EXPECT_STREQ("others may write to it",
		     vtrace_state_dir_fault_str(fault));
	ASSERT_EQ(0, chmod(state, 0755));
	ASSERT_EQ(0, vtrace_state_dir_open(true, &fd, &fault));
	close(fd);
	/*
	 * A link planted in it is not followed: the log is made afresh in
	 * its place, and what the link named is left as it was.
	 */
	snprintf(victim, sizeof(victim), "%s.victim", state);
	vfd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0644);
	ASSERT_LE(0, vfd);
	ASSERT_EQ(6, write(vfd, "victim", 6));
	close(vfd);
	snprintf(target, sizeof(target), "%s/session-x.log", state);
	ASSERT_EQ(0, symlink(victim, target));
	ASSERT_EQ(0, vtrace_session_log_open("x", true, &fd));
	ASSERT_EQ(3, write(fd, "log", 3));
	close(fd);
	ASSERT_EQ(0, lstat(target, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(3, st.st_size);
	ASSERT_EQ(0, stat(victim, &st));
	EXPECT_EQ(6, st.st_size);
	unlink(victim);
}

TEST_F(reg, state_dir_of_another_user_is_refused)
{
	enum vtrace_state_dir_fault fault;
	int fd;

	if (geteuid())
		SKIP(return, "needs root to give the directory away");
	ASSERT_EQ(0, mkdir(state, 0755));
	ASSERT_EQ(0, chown(state, 65534, 65534));
	EXPECT_EQ(-EPERM, vtrace_state_dir_open(true, &fd, &fault));
	EXPECT_EQ(VTRACE_STATE_DIR_FOREIGN, fault);
}

TEST_F(reg, name_taken_is_refused_with_perfettos_wording)
{
	struct vtrace_session *a, *b;
	char msg[256];

	ASSERT_EQ(0, start("board-1", "i1", 0, 0, &a, NULL, 0));
	EXPECT_EQ(-EEXIST, start("board-1", "i2", 0, 0, &b, msg, sizeof(msg)));
	EXPECT_STREQ(
		"A trace with this unique session name (board-1) already exists",
		msg);
	vtrace_session_end(a);
	/* Once it has ended, the name is free. */
	ASSERT_EQ(0, start("board-1", "i2", 0, 0, &b, NULL, 0));
	vtrace_session_end(b);
}

TEST_F(reg, bad_names_are_refused)
{
	struct vtrace_session *s;
	char msg[256];

	EXPECT_EQ(-EINVAL, start("../x", NULL, 0, 0, &s, msg, sizeof(msg)));
	EXPECT_STREQ(
		"bad session name '../x': 1 to 64 letters, digits, '_', '-' and '.', not starting with '.'",
		msg);
	EXPECT_FALSE(vtrace_session_name_valid(".hidden"));
	EXPECT_FALSE(vtrace_session_name_valid("a b"));
	EXPECT_TRUE(vtrace_session_name_valid("a.b-c_9"));
}

TEST_F(reg, unnamed_session_gets_vtrace_pid)
{
	struct vtrace_session *s;
	char want[32];

	ASSERT_EQ(0, start(NULL, NULL, 0, 0, &s, NULL, 0));
	snprintf(want, sizeof(want), "vtrace-%d", (int)getpid());
	EXPECT_STREQ(want, vtrace_session_name(s));
	vtrace_session_end(s);
}

TEST_F(reg, one_session_per_buffer)
{
	static const char busy[] =
		") is already recording the top level buffer; end it with 'vtrace stop top'";
	struct vtrace_session *a, *b, *c, *d;
	char msg[256];

	ASSERT_EQ(0, start("top", NULL, 0, 0, &a, NULL, 0));
	ASSERT_EQ(0, start("inst", "i1", 0, 0, &b, NULL, 0));
	EXPECT_EQ(-EBUSY, start("top2", NULL, 0, 0, &c, msg, sizeof(msg)));
	EXPECT_EQ(0, strncmp(msg, "tracefs is busy: session top (pid ", 34));
	EXPECT_NE(NULL, strstr(msg, busy));
	EXPECT_EQ(-EBUSY, start("inst2", "i1", 0, 0, &d, msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, ") is already recording instance i1;"));
	vtrace_session_end(a);
	vtrace_session_end(b);
}

TEST_F(reg, single_tenant_feature_names_its_holder)
{
	struct vtrace_session *a, *b, *c;
	struct vtrace_session_refused r;
	char msg[256], want[256];

	ASSERT_EQ(0,
		  start("cpus", "i1", 0, VTRACE_SESSION_CPUMASK, &a, NULL, 0));
	EXPECT_EQ(-EBUSY, start("cpus2", "i2", 0,
				VTRACE_SESSION_TIDS | VTRACE_SESSION_CPUMASK,
				&b, msg, sizeof(msg)));
	snprintf(
		want, sizeof(want),
		"tracing_cpumask is held by session cpus (pid %d): one session at a time may change it",
		(int)getpid());
	EXPECT_STREQ(want, msg);
	ASSERT_EQ(0, start("tids", "i2", 0, VTRACE_SESSION_TIDS, &b, NULL, 0));
	ASSERT_EQ(0, start("late", "i3", 0, 0, &c, NULL, 0));
	EXPECT_EQ(-EBUSY, vtrace_session_claim(c, VTRACE_SESSION_TIDS, &r));
	vtrace_session_refused_str(&r, msg, sizeof(msg));
	vtrace_session_refused_free(&r);
	snprintf(
		want, sizeof(want),
		"tids_to_trace is held by session tids (pid %d): one session at a time may change it",
		(int)getpid());
	EXPECT_STREQ(want, msg);
	EXPECT_EQ(0, vtrace_session_claim(c, VTRACE_SESSION_OPTIONS, &r));
	vtrace_session_end(a);
	vtrace_session_end(b);
	vtrace_session_end(c);
}

TEST_F(reg, list_shows_updates)
{
	struct vtrace_session_info *list;
	struct vtrace_session *a, *b;
	size_t nr, i;

	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	EXPECT_EQ(0, nr);
	ASSERT_EQ(0, start("a", "i1", 0, 0, &a, NULL, 0));
	ASSERT_EQ(0, start("b", NULL, 0, 0, &b, NULL, 0));
	ASSERT_EQ(0, vtrace_session_update(a, 1234, 56789));
	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	ASSERT_EQ(2, nr);
	for (i = 0; i < nr; i++) {
		EXPECT_EQ(getpid(), list[i].recorder.pid);
		EXPECT_STREQ("out.dat", list[i].output);
		if (!strcmp(list[i].name, "a")) {
			EXPECT_STREQ("i1", list[i].instance);
			EXPECT_EQ(1234, list[i].events);
			EXPECT_EQ(56789, list[i].bytes);
		} else {
			EXPECT_STREQ("b", list[i].name);
			EXPECT_EQ(NULL, list[i].instance);
			EXPECT_EQ(0, list[i].events);
		}
	}
	vtrace_sessions_free(list, nr);
	vtrace_session_end(a);
	vtrace_session_end(b);
	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	EXPECT_EQ(0, nr);
}

TEST_F(reg, sigkilled_recorder_is_dead_and_cleaned_up)
{
	struct vtrace_session_info *list;
	struct vtrace_session *s;
	char path[128];
	struct holder h;
	size_t nr;
	int ret;

	h = spawn("victim", "i1", 0, &ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	EXPECT_EQ(1, nr);
	vtrace_sessions_free(list, nr);
	kill(h.pid, SIGKILL);
	waitpid(h.pid, NULL, 0);
	close(h.from);
	/* Its entry is still there, but it is not listed ... */
	snprintf(path, sizeof(path), "%s/session-victim.session", state);
	EXPECT_EQ(0, access(path, F_OK));
	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	EXPECT_EQ(0, nr);
	/* ... nor in the way, and the next start removes it. */
	ASSERT_EQ(0, start("victim", "i1", 0, 0, &s, NULL, 0));
	vtrace_session_end(s);
	EXPECT_EQ(-1, access(path, F_OK));
}

/*
 * A fake entry (a lock held, so it looks alive) naming a live process
 * that is no recorder: never signalled.
 */
TEST_F(reg, fake_entry_naming_a_live_process_is_not_signalled)
{
	struct vtrace_session_info *list;
	char path[128];
	int lock, pidfd, status;
	size_t nr;
	pid_t bystander;
	FILE *f;

	bystander = fork();
	if (!bystander) {
		pause();
		_exit(0);
	}
	ASSERT_EQ(0, vtrace_state_file_open("sessions.lock", O_RDWR | O_CREAT,
					    0644, &lock));
	close(lock);
	snprintf(path, sizeof(path), "%s/session-fake.lock", state);
	lock = open(path, O_RDWR | O_CREAT, 0644);
	ASSERT_LE(0, lock);
	ASSERT_EQ(0, flock(lock, LOCK_EX));
	snprintf(path, sizeof(path), "%s/session-fake.session", state);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f,
		"name=fake\npid=%d\nstart_time=1\nexe=1:1\n"
		"boot_id=00000000-0000-0000-0000-000000000000\noutput=x\n",
		(int)bystander);
	fclose(f);
	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	ASSERT_EQ(1, nr);
	EXPECT_EQ(bystander, list[0].recorder.pid);
	EXPECT_EQ(-ESTALE, vtrace_session_signal(&list[0], SIGTERM, &pidfd));
	vtrace_sessions_free(list, nr);
	usleep(100000);
	EXPECT_TRUE(running(bystander));
	kill(bystander, SIGKILL);
	waitpid(bystander, &status, 0);
	close(lock);
}

/* A recorder's pid, once it is dead, names nobody it can signal. */
TEST_F(reg, dead_recorders_pid_is_never_signalled)
{
	struct vtrace_session_info *list;
	pid_t bystander;
	struct holder h;
	size_t nr;
	int ret, pidfd;

	h = spawn("gone", "i1", 0, &ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	ASSERT_EQ(1, nr);
	kill(h.pid, SIGKILL);
	waitpid(h.pid, NULL, 0);
	close(h.from);
	EXPECT_EQ(-ESRCH, vtrace_session_signal(&list[0], SIGTERM, &pidfd));
	/*
	 * A later process of the same executable in the recorder's pid (a
	 * tick later: start times count clock ticks) is not the recorder.
	 */
	usleep(50000);
	bystander = fork();
	if (!bystander) {
		pause();
		_exit(0);
	}
	list[0].recorder.pid = bystander;
	EXPECT_EQ(-ESTALE, vtrace_session_signal(&list[0], SIGTERM, &pidfd));
	vtrace_sessions_free(list, nr);
	usleep(100000);
	EXPECT_TRUE(running(bystander));
	kill(bystander, SIGKILL);
	waitpid(bystander, NULL, 0);
}

TEST_F(reg, stop_signals_the_real_recorder_and_waits)
{
	struct vtrace_session_info *list;
	char why[256];
	struct holder h;
	size_t nr;
	int ret, pidfd;

	h = spawn("real", "i1", 0, &ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, vtrace_sessions_list(&list, &nr));
	ASSERT_EQ(1, nr);
	ASSERT_EQ(0, vtrace_session_signal(&list[0], SIGTERM, &pidfd));
	EXPECT_EQ(0, vtrace_session_wait(pidfd, 5000));
	close(pidfd);
	EXPECT_EQ(0, reap(&h, why, sizeof(why)));
	EXPECT_STREQ("", why);
	vtrace_sessions_free(list, nr);
}

TEST_F(reg, many_sessions_started_at_once_on_one_buffer_one_wins)
{
	int go[2], results[2], done[2], i, won = 0, busy = 0, ret;
	pid_t pids[RACERS];
	char byte;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(results));
	ASSERT_EQ(0, pipe(done));
	for (i = 0; i < RACERS; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			struct vtrace_session *s;
			char name[32];

			snprintf(name, sizeof(name), "racer-%d", i);
			close(go[1]);
			close(done[1]);
			if (read(go[0], &byte, 1) != 0)
				_exit(1);
			ret = start(name, "shared", 0, 0, &s, NULL, 0);
			if (write(results[1], &ret, sizeof(ret)) < 0)
				_exit(1);
			/*
			 * The winner stays until all have tried, however slow
			 * the machine: until the parent closes done.
			 */
			if (read(done[0], &byte, 1) != 0)
				_exit(1);
			vtrace_session_end(s);
			_exit(0);
		}
	}
	close(go[0]);
	close(go[1]); /* all start at once */
	close(results[1]);
	close(done[0]);
	for (i = 0; i < RACERS; i++) {
		ASSERT_EQ(sizeof(ret), read(results[0], &ret, sizeof(ret)));
		if (!ret)
			won++;
		else if (ret == -EBUSY)
			busy++;
	}
	close(done[1]);
	for (i = 0; i < RACERS; i++)
		waitpid(pids[i], NULL, 0);
	EXPECT_EQ(1, won);
	EXPECT_EQ(RACERS - 1, busy);
}

TEST_F(reg, exclusive_needs_root)
{
	struct vtrace_session *s;
	char msg[256];

	/* The harness runs each test in a child of its own: drop root. */
	if (!geteuid())
		ASSERT_EQ(0, seteuid(65534));
	EXPECT_EQ(-EPERM, start("x", NULL, 5, 0, &s, msg, sizeof(msg)));
	EXPECT_STREQ(
		"an exclusive session (exclusive_prio 5) may only be started by root",
		msg);
}

TEST_F(reg, exclusive_aborts_every_other_session)
{
	struct holder plain, low;
	struct vtrace_session *s;
	char why[256];
	int ret;

	if (geteuid())
		SKIP(return, "exclusive sessions need root");
	plain = spawn("plain", "i1", 0, &ret);
	ASSERT_EQ(0, ret);
	low = spawn("other", "i2", 0, &ret);
	ASSERT_EQ(0, ret);
	/* Same buffer as "plain": it is aborted and waited for. */
	ASSERT_EQ(0, start("high", "i1", 7, 0, &s, NULL, 0));
	EXPECT_FALSE(running(plain.pid));
	EXPECT_FALSE(running(low.pid));
	EXPECT_EQ(HOLDER_ABORTED, reap(&plain, why, sizeof(why)));
	EXPECT_STREQ("higher-priority (7) exclusive session high", why);
	EXPECT_EQ(HOLDER_ABORTED, reap(&low, why, sizeof(why)));
	EXPECT_STREQ("higher-priority (7) exclusive session high", why);
	vtrace_session_end(s);
}

/* The message of a session of priority @m refused for one of @active. */
static const char *blocked(unsigned int active, unsigned int m)
{
	static char want[128];

	snprintf(
		want, sizeof(want),
		"An exclusive session with priority %u >= requested priority %u is already active.",
		active, m);
	return want;
}

TEST_F(reg, exclusive_blocks_plain_and_lower_or_equal)
{
	static const unsigned int refused[] = { 0, 5, 4 };
	struct vtrace_session *s, *t;
	struct holder ex;
	char msg[256];
	size_t i;
	int ret;

	if (geteuid())
		SKIP(return, "exclusive sessions need root");
	ex = spawn("ex", "i1", 5, &ret);
	ASSERT_EQ(0, ret);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		EXPECT_EQ(-EBUSY, start("try", "i2", refused[i], 0, &s, msg,
					sizeof(msg)));
		EXPECT_STREQ(blocked(5, refused[i]), msg);
	}
	EXPECT_TRUE(running(ex.pid));
	/* Higher: it aborts "ex", and then blocks the rest in turn. */
	ASSERT_EQ(0, start("higher", "i3", 6, 0, &s, NULL, 0));
	EXPECT_EQ(HOLDER_ABORTED, reap(&ex, msg, sizeof(msg)));
	EXPECT_STREQ("higher-priority (6) exclusive session higher", msg);
	EXPECT_EQ(-EBUSY, start("ex", "i1", 5, 0, &t, msg, sizeof(msg)));
	EXPECT_STREQ(blocked(6, 5), msg);
	vtrace_session_end(s);
	/* Once it has ended, anything may start again. */
	ASSERT_EQ(0, start("plain", "i2", 0, 0, &t, NULL, 0));
	vtrace_session_end(t);
}

TEST_F(reg, name_is_checked_before_exclusive_rules)
{
	struct vtrace_session *s;
	struct holder ex;
	char msg[256];
	int ret;

	if (geteuid())
		SKIP(return, "exclusive sessions need root");
	ex = spawn("ex", "i1", 5, &ret);
	ASSERT_EQ(0, ret);
	EXPECT_EQ(-EEXIST, start("ex", "i2", 9, 0, &s, msg, sizeof(msg)));
	EXPECT_STREQ(
		"A trace with this unique session name (ex) already exists",
		msg);
	EXPECT_TRUE(running(ex.pid));
	stop_holder(&ex);
}

TEST_HARNESS_MAIN
