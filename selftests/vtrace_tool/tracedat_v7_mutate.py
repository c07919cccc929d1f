#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# tracedat_v7_mutate.py IN OUT SECTION-ID FROM TO - rewrite one section
# of a trace.dat version 7 (trace-cmd.dat.v7(5)), compressed (zstd) or
# not: its decompressed contents get FROM replaced by TO (Python bytes
# literals, e.g. "b'prev_state;'"), or, with FROM "kallsyms-size", its
# first 4 bytes set to TO (an int). The new section is appended, and so
# are the options sections, each naming the next one's copy and the one
# that named the section naming the new one; the file header then names
# the first copy. Host only (python3, the zstd command). Made the
# committed version 7 inputs of fuzz-report-corpus/:
#
#   tracedat_v7_mutate.py v7-zstd-sched-markers.dat \
#	v7-zstd-format-unknown-field.dat 18 "b'prev_state;'" "b'prev_statX;'"
#   tracedat_v7_mutate.py v7-zstd-sched-markers.dat \
#	v7-zstd-kallsyms-size-huge.dat 19 kallsyms-size 4294967295
import ast, struct, subprocess, sys

def zstd(data, *args):
	return subprocess.run(["zstd", "-q", "-c", *args], input=data,
			      stdout=subprocess.PIPE, check=True).stdout

d = bytearray(open(sys.argv[1], "rb").read())
sec_id = int(sys.argv[3])
p = d.index(b"\0", 10) + 1 + 2 + 4
algo_end = d.index(b"\0", p)
algo = bytes(d[p:algo_end])
p = d.index(b"\0", algo_end + 1) + 1
opt_at = p
options = struct.unpack_from("<Q", d, p)[0]

def load(off):
	sid, flags, desc, size = struct.unpack_from("<HHIQ", d, off)
	body = bytes(d[off + 16:off + 16 + size])
	if flags & 1:
		clen, ulen = struct.unpack_from("<II", body, 0)
		body = zstd(body[8:8 + clen], "-d")
	return sid, flags, desc, body

def store(sid, flags, desc, body):
	if flags & 1:
		comp = zstd(body, "-19")
		body = struct.pack("<II", len(comp), len(body)) + comp
	off = len(d)
	d.extend(struct.pack("<HHIQ", sid, flags, desc, len(body)) + body)
	return off

chain = []
off = options
while off:
	sid, oflags, odesc, opts = load(off)
	opts = bytearray(opts)
	q = 0
	off = 0
	while q < len(opts):
		oid, size = struct.unpack_from("<HI", opts, q)
		if oid == sec_id:
			target = struct.unpack_from("<Q", opts, q + 6)[0]
			tsid, tflags, tdesc, body = load(target)
			if sys.argv[4] == "kallsyms-size":
				body = struct.pack("<I", int(sys.argv[5])) + body[4:]
			else:
				old = ast.literal_eval(sys.argv[4])
				new = ast.literal_eval(sys.argv[5])
				assert old in body
				body = body.replace(old, new, 1)
			struct.pack_into("<Q", opts, q + 6,
					 store(tsid, tflags, tdesc, body))
		if oid == 0:
			off = struct.unpack_from("<Q", opts, q + 6)[0]
			chain.append((sid, oflags, odesc, opts, q + 6))
			break
		q += 6 + size
# The chain again, from its end, each section naming its new next one.
nxt = 0
for sid, oflags, odesc, opts, done in reversed(chain):
	struct.pack_into("<Q", opts, done, nxt)
	nxt = store(sid, oflags, odesc, bytes(opts))
struct.pack_into("<Q", d, opt_at, nxt)
open(sys.argv[2], "wb").write(d)
