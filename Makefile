# SPDX-License-Identifier: Apache-2.0
# audiosession: build, test, run and install.
#
#   make run      build release and run audiosessiond (against a private server when there is none;
#                 SERVER=pipewire for a private PipeWire 1.4 + WirePlumber 0.5)
#   make test     every test: unit tests of the engine and integration tests against real servers
#   make demo     a scripted scene with the event log on screen (SERVER=pipewire as for run)
#   make bench    the benchmarks: figures against baselines measured in the same run (BENCH_FLAGS=--quick)
#   make soak     the reliability runs on every server stack, as a table (SOAK_FLAGS=--cycles-scale 0.1)
#   make install  binaries, policies, units and the introspection XML into $(PREFIX)

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages, by what needs them.
BUILD_PACKAGES := pkg-config libpulse-dev libdbus-1-dev
RUN_PACKAGES := pulseaudio pulseaudio-utils dbus dbus-daemon
TEST_PACKAGES := pipewire pipewire-pulse wireplumber libglib2.0-bin systemd python3 python3-dbus mpv mpv-mpris playerctl

# Installs the named Debian packages that are missing, with sudo when not root.
define ensure_packages
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

.PHONY: all build release deps-build deps-run deps-test deps-pipewire-1.4 run test demo bench soak install clean

all: build

deps-build:
	$(call ensure_packages,$(BUILD_PACKAGES))

deps-run: deps-build
	$(call ensure_packages,$(RUN_PACKAGES))

deps-test: deps-run deps-pipewire-1.4
	$(call ensure_packages,$(TEST_PACKAGES))

# PipeWire 1.4 + WirePlumber 0.5 from bookworm-backports, unpacked into .build/pipewire-1.4/prefix
# (never installed over the system's packages): the third server stack of the tests.
deps-pipewire-1.4:
	scripts/fetch-pipewire-1.4.sh

build: deps-build
	$(SWIFT) build

release: deps-build
	$(SWIFT) build -c release

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# SERVER=pipewire: the private PipeWire 1.4 stack as the embedded default, whatever runs already.
SERVER_DEPS := $(if $(filter pipewire,$(SERVER)),deps-pipewire-1.4)

run: deps-run $(SERVER_DEPS) release
	SERVER=$(SERVER) scripts/run.sh

demo: deps-run $(SERVER_DEPS) release
	DEMO=1 SERVER=$(SERVER) scripts/run.sh

bench: deps-test release
	.build/release/audiosession-bench $(BENCH_FLAGS)

soak: deps-test release
	.build/release/audiosession-soak $(SOAK_FLAGS)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/audiosession/policies \
	  $(DESTDIR)$(PREFIX)/share/dbus-1/interfaces $(DESTDIR)$(PREFIX)/share/dbus-1/services \
	  $(DESTDIR)$(PREFIX)/lib/systemd/user
	install -m 755 .build/release/audiosessiond .build/release/audiosessionctl $(DESTDIR)$(PREFIX)/bin/
	install -m 644 policies/*.toml policies/README.md $(DESTDIR)$(PREFIX)/share/audiosession/policies/
	install -m 644 interfaces/*.xml $(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/
	sed 's|@BINDIR@|$(PREFIX)/bin|g' packaging/audiosessiond.service.in \
	  > $(DESTDIR)$(PREFIX)/lib/systemd/user/audiosessiond.service
	sed 's|@BINDIR@|$(PREFIX)/bin|g' packaging/io.github.audiosession.Bridge1.service.in \
	  > $(DESTDIR)$(PREFIX)/share/dbus-1/services/io.github.audiosession.Bridge1.service

clean:
	rm -rf .build
