#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [TARGET] - the main job on the built-in default: boot a Debian
# kernel (6.12 amd64 unless TARGET says otherwise) under QEMU, load vtrace.ko
# with its simulator running, and stream the vendor events for ten seconds.

set -euo pipefail

rig=$(cd "$(dirname "$0")" && pwd)
"$rig/setup.sh"
exec "$rig/run-guest.sh" --demo "${1:-6.12-amd64}"
