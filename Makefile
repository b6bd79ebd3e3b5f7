# SPDX-License-Identifier: Apache-2.0
# audiosession: build, test, run and install.
#
#   make run      build release and run audiosessiond (against a private server when there is none;
#                 SERVER=pipewire for a private PipeWire 1.4 + WirePlumber 0.5)
#   make test     every test: unit tests of the engine and integration tests against real servers
#   make docs     the DocC site of AudioSessionKit and MediaPlayerKit in .build/docs-site (make test builds it too)
#   make demo     a scripted scene with the event log on screen (SERVER=pipewire as for run)
#   make bench    the benchmarks: figures against baselines measured in the same run (BENCH_FLAGS=--quick)
#   make check    the inner loop: the tests that need no server (engine, model, policy files, views)
#   make stress   the server suites ROUNDS times (3) on every stack under full CPU load, failures per test
#   make soak     the reliability runs on every server stack, as a table (SOAK_FLAGS=--cycles-scale 0.1)
#   make install  copies what `make` built (binaries, policies, units, introspection XML, man pages,
#                 completions) into $(DESTDIR)$(PREFIX); builds nothing, needs no package manager
#   make uninstall  removes what make install copied
#   make deb      a Debian package of the installed files, checked with lintian

SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages, by what needs them.
BUILD_PACKAGES := pkg-config libpulse-dev libdbus-1-dev
RUN_PACKAGES := pulseaudio pulseaudio-utils dbus dbus-daemon
TEST_PACKAGES := pipewire pipewire-pulse wireplumber libspa-0.2-bluetooth pulseaudio-module-bluetooth libglib2.0-bin systemd python3 python3-dbus python3-gi gir1.2-glib-2.0 \
	libglib2.0-dev gcc make mpv mpv-mpris playerctl speech-dispatcher speech-dispatcher-espeak-ng espeak-ng chromium xvfb firefox-esr \
	gstreamer1.0-tools gstreamer1.0-pulseaudio gstreamer1.0-plugins-base librsvg2-bin tmux strace \
	man-db lintian dpkg-dev desktop-file-utils xfce4-panel imagemagick

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

.PHONY: all build programs bridge-programs release deps-build deps-run deps-test deps-pipewire-1.4 deps-pipewire-1.6 run test check stress docs demo bench soak \
	install uninstall deb clean

all: programs

deps-build:
	$(call ensure_packages,$(BUILD_PACKAGES))

deps-run: deps-build
	$(call ensure_packages,$(RUN_PACKAGES))

deps-test: deps-run deps-pipewire-1.4 deps-pipewire-1.6
	$(call ensure_packages,$(TEST_PACKAGES))

# PipeWire 1.4.2 + WirePlumber 0.5.8 from bookworm-backports, and PipeWire 1.6.9 + WirePlumber 0.5.18
# from sid, each unpacked into .build/pipewire-<release>/prefix (never installed over the system's
# packages): the third and fourth server stacks of the tests.
deps-pipewire-1.4:
	scripts/fetch-pipewire.sh 1.4

deps-pipewire-1.6:
	scripts/fetch-pipewire.sh 1.6

build: deps-build
	$(SWIFT) build

# What make run and make demo run: the bridge, and audiosessionctl to look at it; nothing else is built.
bridge-programs: deps-build
	$(SWIFT) build $(STATIC) --product audiosessiond
	$(SWIFT) build $(STATIC) --product audiosessionctl

# The programs with the Swift runtime linked in (they run without the toolchain), their manual pages
# and shell completions: what make install copies.
# Linked by lld: gold warns, for each program, that the toolchain's static Foundation uses mktemp.
STATIC := -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld
programs: bridge-programs
	$(SWIFT) build $(STATIC) --product audiosession-indicator
	scripts/make-manuals.sh .build/release .build/dist

# Everything in release mode (the benchmarks and soak runs too).
release: programs
	$(SWIFT) build $(STATIC)

# A Debian package of the installed files, checked by lintian.
deb: programs
	$(call ensure_packages,lintian)
	lintian --fail-on error --tag-display-limit 0 $$(scripts/make-deb.sh .build/release .build/dist .build/deb)

test: deps-test programs docs
	$(SWIFT) build --build-tests
	scripts/make-manuals.sh .build/debug .build/dist-debug
	scripts/run-tests.sh $(SWIFT)

# The tests that need no server: the engine, the model, the policy files, the timeline and the screen,
# the bus contract's codecs, the documentation's links. No package beyond the build's.
CHECK_SUITES := AudioPolicyTests|AudioSessionModelTests|EventTimelineTests|TopViewTests|IndicatorModelTests|DocumentationTests|AudioSessionIPCTests|PipeWireDumpTests
check: deps-build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '$(CHECK_SUITES)'

# The server suites ROUNDS times on every stack (STACKS=pipewire,pipewire-1.6 for some; FILTER= for one
# suite) while every core is kept busy; prints each test's failures per stack.
ROUNDS ?= 3
stress: deps-test programs
	$(SWIFT) build --build-tests
	scripts/make-manuals.sh .build/debug .build/dist-debug
	ROUNDS=$(ROUNDS) CHECK_SUITES='$(CHECK_SUITES)' scripts/stress.sh $(SWIFT)

# The API reference of AudioSessionKit and MediaPlayerKit as a static DocC site; it fails on a DocC
# warning and on a public symbol of the kits without a /// comment.
DOCS_DIR := .build/docs-site
docs: deps-build
	rm -rf $(DOCS_DIR)
	$(SWIFT) package --allow-writing-to-directory $(DOCS_DIR) generate-documentation \
		--target AudioSessionKit --target MediaPlayerKit --enable-experimental-combined-documentation \
		--transform-for-static-hosting --output-path $(DOCS_DIR) --warnings-as-errors \
		--experimental-documentation-coverage --coverage-summary-level none
	python3 scripts/check-doc-coverage.py .build/plugins/Swift-DocC/outputs/intermediates/*.doccarchive/documentation-coverage.json
	@echo "the DocC site is in $(DOCS_DIR); serve it, e.g. python3 -m http.server -d $(DOCS_DIR), and open /documentation/audiosessionkit"

# SERVER=pipewire: the private PipeWire 1.4 stack as the embedded default, whatever runs already.
SERVER_DEPS := $(if $(filter pipewire,$(SERVER)),deps-pipewire-1.4)

run: deps-run $(SERVER_DEPS) bridge-programs
	SERVER=$(SERVER) scripts/run.sh

demo: deps-run $(SERVER_DEPS) bridge-programs
	DEMO=1 SERVER=$(SERVER) scripts/run.sh

bench: deps-test release
	scripts/bench.sh .build/release/audiosession-bench $(BENCH_FLAGS)

soak: deps-test release
	.build/release/audiosession-soak $(SOAK_FLAGS)

# Where things go. The unit and D-Bus folders come from systemd's and D-Bus's pkg-config files where
# they are installed, relative to PREFIX.
# What install copies from: make's output (a test points these at a debug build).
RELEASE_DIR ?= .build/release
DIST_DIR ?= .build/dist
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
pkg_dir = $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) --variable=$(2) $(1) 2>/dev/null),$(3))
SYSTEMD_USER_UNIT_DIR ?= $(call pkg_dir,systemd,systemduserunitdir,$(PREFIX)/lib/systemd/user)
DBUS_SERVICES_DIR ?= $(call pkg_dir,dbus-1,session_bus_services_dir,$(DATADIR)/dbus-1/services)
DBUS_INTERFACES_DIR ?= $(call pkg_dir,dbus-1,interfaces_dir,$(DATADIR)/dbus-1/interfaces)
BASH_COMPLETION_DIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETION_DIR ?= $(DATADIR)/fish/vendor_completions.d
# The indicator's XDG autostart entry: /etc/xdg/autostart for PREFIX=/usr, else under PREFIX.
AUTOSTART_DIR ?= $(if $(filter /usr,$(PREFIX)),/etc/xdg/autostart,$(PREFIX)/etc/xdg/autostart)

# Every file make install writes, for make uninstall.
INSTALLED_FILES = $(BINDIR)/audiosessiond $(BINDIR)/audiosessionctl $(BINDIR)/audiosession-indicator \
	$(SYSTEMD_USER_UNIT_DIR)/audiosession-indicator.service $(AUTOSTART_DIR)/audiosession-indicator.desktop \
	$(addprefix $(DATADIR)/audiosession/policies/,$(notdir $(wildcard policies/*.toml)) README.md) \
	$(addprefix $(DBUS_INTERFACES_DIR)/,$(notdir $(wildcard interfaces/*.xml))) \
	$(DBUS_SERVICES_DIR)/io.github.audiosession.Bridge1.service $(SYSTEMD_USER_UNIT_DIR)/audiosessiond.service \
	$(MANDIR)/man1/audiosessionctl.1 $(MANDIR)/man5/audiosession-policy.5 $(MANDIR)/man8/audiosessiond.8 \
	$(BASH_COMPLETION_DIR)/audiosessionctl $(ZSH_COMPLETION_DIR)/_audiosessionctl \
	$(FISH_COMPLETION_DIR)/audiosessionctl.fish

install:
	@for f in $(RELEASE_DIR)/audiosessiond $(RELEASE_DIR)/audiosessionctl $(RELEASE_DIR)/audiosession-indicator \
	  $(DIST_DIR)/man/audiosessionctl.1; do \
	  [ -e $$f ] || { echo "make install: $$f is missing; run make (or make release) first" >&2; exit 1; }; \
	done
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/audiosession/policies $(DESTDIR)$(DBUS_INTERFACES_DIR) \
	  $(DESTDIR)$(DBUS_SERVICES_DIR) $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR) $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASH_COMPLETION_DIR) \
	  $(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR) $(DESTDIR)$(AUTOSTART_DIR)
	install -m 755 $(RELEASE_DIR)/audiosessiond $(RELEASE_DIR)/audiosessionctl $(RELEASE_DIR)/audiosession-indicator \
	  $(DESTDIR)$(BINDIR)/
	install -m 644 policies/*.toml policies/README.md $(DESTDIR)$(DATADIR)/audiosession/policies/
	install -m 644 interfaces/*.xml $(DESTDIR)$(DBUS_INTERFACES_DIR)/
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/audiosessiond.service.in > $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/audiosessiond.service
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/io.github.audiosession.Bridge1.service.in \
	  > $(DESTDIR)$(DBUS_SERVICES_DIR)/io.github.audiosession.Bridge1.service
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/audiosession-indicator.service.in \
	  > $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/audiosession-indicator.service
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/audiosession-indicator.desktop.in \
	  > $(DESTDIR)$(AUTOSTART_DIR)/audiosession-indicator.desktop
	chmod 644 $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/audiosession-indicator.service \
	  $(DESTDIR)$(AUTOSTART_DIR)/audiosession-indicator.desktop
	chmod 644 $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/audiosessiond.service $(DESTDIR)$(DBUS_SERVICES_DIR)/io.github.audiosession.Bridge1.service
	install -m 644 $(DIST_DIR)/man/audiosessionctl.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/man/audiosession-policy.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 $(DIST_DIR)/man/audiosessiond.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 $(DIST_DIR)/completions/audiosessionctl.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/audiosessionctl
	install -m 644 $(DIST_DIR)/completions/_audiosessionctl $(DESTDIR)$(ZSH_COMPLETION_DIR)/_audiosessionctl
	install -m 644 $(DIST_DIR)/completions/audiosessionctl.fish $(DESTDIR)$(FISH_COMPLETION_DIR)/audiosessionctl.fish

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	-rmdir $(DESTDIR)$(DATADIR)/audiosession/policies $(DESTDIR)$(DATADIR)/audiosession 2>/dev/null
	-rmdir -p $(DESTDIR)$(AUTOSTART_DIR) 2>/dev/null

clean:
	rm -rf .build
