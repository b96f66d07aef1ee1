# ptxemu top-level Makefile: non-recursive; each folder contributes a module.mk.
# Targets: all (default), check, check-<folder>, bench, fuzz, install, clean;
# SANITIZE=1 builds and checks with ASan and UBSan in build-san/.

# SANITIZE=1: everything built with ASan and UBSan into build-san/ (make check SANITIZE=1).
ifeq ($(SANITIZE),1)
BUILD   ?= build-san
OPT     ?= -O1 -g
SAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
export CK_TIMEOUT_MULTIPLIER ?= 10
endif
BUILD   ?= build
PREFIX  ?= /usr/local
CC      ?= cc
OPT     ?= -O2 -g
WARN    ?= -Wall -Wextra -pedantic
CFLAGS  ?= $(OPT)
# Vectorise the lane loops even where aliasing needs a run-time check (gcc).
VECT    := $(shell $(CC) -fvect-cost-model=dynamic -x c -c /dev/null -o /dev/null 2>/dev/null && echo -fvect-cost-model=dynamic)
# Align functions and loops: the interpreter's speed otherwise depends on where the linker
# happens to place its hot loop and handlers (a 2x swing was measured).
ALIGN   := $(shell $(CC) -falign-functions=64 -falign-loops=32 -x c -c /dev/null -o /dev/null 2>/dev/null && echo -falign-functions=64 -falign-loops=32)
# 128-bit atomics (atom.b128) as an inline double-width compare-and-swap on x86-64
# (cmpxchg16b); AArch64 has one without a flag (exec/mem/atomic.c).
CX16    := $(shell $(CC) -dumpmachine 2>/dev/null | grep -q '^x86_64' && echo -mcx16)
# Vectors wider than the baseline's registers (isa/sem/hvec.h) passed between inlined
# functions: no ABI is involved, so no note about it.
PSABI   := $(shell $(CC) -Wno-psabi -x c -c /dev/null -o /dev/null 2>/dev/null && echo -Wno-psabi)
# -fPIC: the libraries also go into the driver, a shared library (runtime/driver/).
# -fno-math-errno -fno-trapping-math: nothing reads errno or the host's floating-point
# exception flags, and the results are IEEE's either way; without them sqrtf is a call
# and a lane loop with a float comparison under a condition is not vectorised.
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -fPIC -ffp-contract=off -fno-math-errno -fno-trapping-math $(VECT) $(ALIGN) $(CX16) $(PSABI) $(WARN) $(CFLAGS) $(SAN_CFLAGS) -MMD -MP
CPPFLAGS += -I. -I$(BUILD) -I$(BUILD)/frontend
FLEX    ?= flex
BISON   ?= bison
AR      ?= ar
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
LDLIBS  += -lm -lpthread -lelf -lzstd -llz4

.PHONY: all check bench install clean
all:

# Every library has a shipped build (build/obj) and a test build (build/tobj,
# compiled with -DPTXEMU_TESTING to expose internal hooks to the unit tests).
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@
$(BUILD)/tobj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DPTXEMU_TESTING $(CHECK_CFLAGS) -c $< -o $@

# lib_template(folder): builds $(BUILD)/lib/lib<folder>.a and its test twin.
define lib_template
$(1)_OBJS  := $$(patsubst %.c,$(BUILD)/obj/%.o,$$($(1)_SRCS))
$(1)_TOBJS := $$(patsubst %.c,$(BUILD)/tobj/%.o,$$($(1)_SRCS))
$(BUILD)/lib/lib$(1).a: $$($(1)_OBJS)
	@mkdir -p $$(dir $$@)
	$$(AR) rcs $$@ $$^
$(BUILD)/tlib/lib$(1).a: $$($(1)_TOBJS)
	@mkdir -p $$(dir $$@)
	$$(AR) rcs $$@ $$^
all: $(BUILD)/lib/lib$(1).a
endef

include isa/module.mk
include frontend/module.mk
include exec/module.mk
include runtime/module.mk
include tools/module.mk
include tests/module.mk
include tests/fuzz-harness/module.mk

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/ptxemu $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/doc/ptxemu
	install -m 755 $(BUILD)/bin/ptxrun $(DESTDIR)$(PREFIX)/bin/ptxrun
	install -m 755 $(BUILD)/lib/libcuda.so.1 $(DESTDIR)$(PREFIX)/lib/ptxemu/libcuda.so.1
	install -m 755 $(BUILD)/lib/libptxemu_nvrtc.so $(DESTDIR)$(PREFIX)/lib/ptxemu/libptxemu_nvrtc.so
	install -m 644 docs/ptxrun.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptxrun.1
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/ptxemu/

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
