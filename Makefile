# SPDX-License-Identifier: GPL-2.0
#
# xrpcrdma: RPC-over-RDMA v1 for the kernel's SUNRPC layer.
#
#   make deps     install every Debian package the project needs (root)
#   make          build module/xrpcrdma.ko (newest installed kernel) and rdmactl
#   make module KVER=<version> | KDIR=<dir>   the module for another kernel
#                 (WERROR=y: warnings are errors, as make check builds it;
#                 NOTRACE=y: no trace events, into build/kmod-notrace/, to
#                 measure their cost against)
#   make modules-all   the module for every installed kernel and every
#                 kernel of the Debian 13 root (build/trixie-root)
#   make regen    regenerate the files that come from the netlink spec
#   make check    every test: style, sparse, unit tests, guest selftests
#   make demo     NFSv4.1 over xrpcrdma in a test host, shown step by step
#                 (KVER=<version>: another kernel, also one of the Debian 13 root)
#   make htmldocs build Documentation/ with Sphinx into build/docs/html
#   make dkms-check  build the module with dkms.conf for every installed kernel
#                 (and with the Debian 13 root's dkms for its kernels)
#   make bench    measure xrpcrdma against the in-tree rpcrdma and TCP (test host)
#   make fuzz-wire  a long wire fuzzing campaign against the server (test host;
#                 FUZZ_COUNT=messages, FUZZ_SEED=n or random, FUZZ_KVER=kernel)
#   make wire-corpus  capture the fuzzer's seed corpus again from the in-tree
#                 NFS client (two test-host guests; CORPUS_KVER=kernel)
#   make install  the module for the running kernel (depmod included), rdmactl,
#                 rdmactl(8) and its bash completion
#   make deb      Debian packages xrpcrdma-dkms and rdmactl into build/deb/

TOP := $(CURDIR)
BUILD := $(TOP)/build

# Installed kernels that can build modules, oldest first.
KVERS_HOST := $(shell for d in /lib/modules/*/build; do \
	[ -f $$d/Makefile ] && basename $$(dirname $$d); done 2>/dev/null | sort -V)
# Kernels of the Debian 13 root `make deps` builds (scripts/trixie-root.sh):
# their modules are built inside that root (scripts/root-make.sh).
TRIXIE_ROOT := $(BUILD)/trixie-root
KVERS_ROOT := $(shell for d in $(TRIXIE_ROOT)/lib/modules/*/build; do \
	[ -f $$d/Makefile ] && basename $$(dirname $$d); done 2>/dev/null | sort -V)
KVERS_ALL := $(shell printf '%s\n' $(KVERS_HOST) $(KVERS_ROOT) | sort -uV)
# `make install` installs for the running kernel when the host can build
# for it, so that `modprobe xrpcrdma` finds the module at once.
ifneq ($(filter install,$(MAKECMDGOALS)),)
ifneq ($(filter $(shell uname -r),$(KVERS_HOST)),)
KVER ?= $(shell uname -r)
endif
endif
# The default stays the newest kernel the host itself can build for.
KVER ?= $(lastword $(KVERS_HOST))
KDIR ?= /lib/modules/$(KVER)/build
# A root kernel the host lacks is built in the root.
IN_ROOT = $(and $(filter $(KVER),$(KVERS_ROOT)),$(filter-out $(KVERS_HOST),$(KVER)))

KSRC := $(BUILD)/linux-src
# A build without trace events (NOTRACE=y) goes elsewhere: nothing that
# takes build/kmod/KVER may find it.
KMOD_DIR = $(BUILD)/kmod$(if $(filter y,$(NOTRACE)),-notrace)/$(KVER)
RDMACTL := $(BUILD)/ctl/rdmactl

MODULE_SRCS := Kbuild VERSION $(wildcard module/*.c module/*.h) module/Kbuild \
	module/conftest.sh uapi/linux/xrpcrdma.h

.PHONY: all deps module modules-all ctl kernel-src regen check demo install clean
.PHONY: htmldocs dkms-check bench fuzz-wire wire-corpus deb

all: module ctl

deps:
	@bash scripts/deps.sh

kernel-src:
	@scripts/kernel-src.sh $(KSRC)

# Each kernel gets its own copy of the sources, so builds for several
# kernels never share objects. cp -p keeps times: unchanged files are not
# rebuilt.
module:
	@test -n "$(KVER)" || { echo "no kernel headers installed: make deps" >&2; exit 1; }
	@mkdir -p $(KMOD_DIR)/module $(KMOD_DIR)/uapi/linux
	@for f in $(MODULE_SRCS); do cp -p $$f $(KMOD_DIR)/$$f; done
ifeq ($(IN_ROOT),)
	$(MAKE) -C $(KDIR) M=$(KMOD_DIR) modules $(if $(C),C=$(C)) \
		$(if $(filter y,$(WERROR)),XR_WERROR=y) \
		$(if $(filter y,$(NOTRACE)),XR_NOTRACE=y)
else
	scripts/root-make.sh $(TRIXIE_ROOT) $(KVER) $(KMOD_DIR) modules $(if $(C),C=$(C)) \
		$(if $(filter y,$(WERROR)),XR_WERROR=y) \
		$(if $(filter y,$(NOTRACE)),XR_NOTRACE=y)
endif
	@if [ "$(KVER)" = "$(lastword $(KVERS_HOST))" ] && [ "$(NOTRACE)" != y ]; then \
		cp $(KMOD_DIR)/module/xrpcrdma.ko module/xrpcrdma.ko; fi

modules-all:
	@for k in $(KVERS_ALL); do $(MAKE) --no-print-directory module KVER=$$k || exit 1; done

ctl:
	@cmake -S ctl -B $(BUILD)/ctl -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD)/ctl -j2

regen: kernel-src
	scripts/nl-gen.sh $(KSRC) $(TOP)

check: deps
	@scripts/check.sh

demo: deps
	@scripts/demo.sh $(KVER)

bench: deps
	@bench/run.sh $(BENCH_KVER)

# selftests/wire_fuzz.sh with a longer campaign than make check's, in a
# test host of FUZZ_KVER (the newest installed kernel by default).
FUZZ_COUNT ?= 20000
FUZZ_SEED ?= random
FUZZ_KVER ?= $(KVER)

fuzz-wire: deps
	@$(MAKE) --no-print-directory module KVER=$(FUZZ_KVER) KDIR=/lib/modules/$(FUZZ_KVER)/build
	@$(MAKE) --no-print-directory ctl
	selftests/testhost/run.sh --kernel $(FUZZ_KVER) \
		--module $(BUILD)/kmod/$(FUZZ_KVER)/module/xrpcrdma.ko --timeout 7200 \
		--log $(BUILD)/fuzz-wire-$(FUZZ_KVER).console -- \
		env XR_MODULE=$(BUILD)/kmod/$(FUZZ_KVER)/module/xrpcrdma.ko \
		XR_WIRE_FUZZ_COUNT=$(FUZZ_COUNT) XR_WIRE_FUZZ_SEED=$(FUZZ_SEED) \
		XR_WIRE_FUZZ_TIMEOUT=7000 selftests/wire_fuzz.sh

# The captured seed corpus of the wire fuzzer (Documentation/testing.rst).
CORPUS_KVER ?= $(KVER)

wire-corpus: deps
	scripts/wire-corpus.sh $(CORPUS_KVER)

# Documentation: warnings are errors. conf.py generates the netlink
# reference from the spec with ynl-gen-rst.py (from kernel-src).
htmldocs: kernel-src
	@command -v sphinx-build >/dev/null || { echo "sphinx-build missing: make deps" >&2; exit 1; }
	sphinx-build -W --keep-going -q -b html -d $(BUILD)/docs/doctrees Documentation $(BUILD)/docs/html

# DKMS in a tree of its own under build/dkms: the host's DKMS is untouched.
dkms-check:
	@scripts/dkms-check.sh
	@if [ ! -d $(TRIXIE_ROOT) ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then scripts/dkms-check.sh --root $(TRIXIE_ROOT); \
	else echo "dkms-check: not root: no DKMS build inside $(TRIXIE_ROOT)"; fi

# dpkg-buildpackage on a copy of the tree under build/deb (debian/).
deb:
	@scripts/deb.sh

# The module for KVER (default: the running kernel), with depmod, and
# rdmactl with its manual page and bash completion under PREFIX (DESTDIR
# is honoured for rdmactl; with DESTDIR, depmod is left to the caller).
# The installed module is stripped of its debugging information, as
# Debian's own and DKMS's are (INSTALL_MOD_STRIP= keeps it: a 15 MB
# module that the kernel's xz then takes many seconds to compress).
PREFIX ?= /usr/local
INSTALL_MOD_STRIP ?= 1

install: all
	$(MAKE) -C $(KDIR) M=$(KMOD_DIR) INSTALL_MOD_STRIP=$(INSTALL_MOD_STRIP) modules_install
	$(if $(DESTDIR),,depmod -a $(KVER))
	cmake --install $(BUILD)/ctl --prefix $(PREFIX)
	install -D -m 0755 $(RDMACTL) $(DESTDIR)/usr/local/sbin/rdmactl

clean:
	rm -rf $(BUILD) module/xrpcrdma.ko
