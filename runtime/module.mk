# runtime/module.mk: libruntime, launching kernels and the CUDA runtime replacement.
runtime_SRCS := $(wildcard runtime/*.c)
ifneq ($(runtime_SRCS),)
$(eval $(call lib_template,runtime))
endif

# The CUDA driver on the emulator: build/lib/libcuda.so.1 (runtime/driver/), exporting what
# the real driver exports (exports.def) and nothing else (libcuda.map).  Not in the
# sanitizer build: an ASan library cannot be loaded into an uninstrumented program.
driver_SRCS := $(wildcard runtime/driver/*.c)
driver_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(driver_SRCS))
DRIVER_LIBS := $(BUILD)/lib/libruntime.a $(BUILD)/lib/libexec.a $(BUILD)/lib/libfrontend.a $(BUILD)/lib/libisa.a
$(BUILD)/lib/libcuda.so.1: $(driver_OBJS) $(DRIVER_LIBS) runtime/driver/libcuda.map
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=runtime/driver/libcuda.map \
	  -Wl,-z,defs -o $@ $(driver_OBJS) $(DRIVER_LIBS) $(LDLIBS) -lnettle
# NVRTC's cubins on the emulator (runtime/nvrtc/shim.c): preloaded by `ptxrun ./app`.
$(BUILD)/lib/libptxemu_nvrtc.so: runtime/nvrtc/shim.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-z,defs -o $@ $< -ldl -lpthread
ifneq ($(SANITIZE),1)
all: $(BUILD)/lib/libcuda.so.1 $(BUILD)/lib/libptxemu_nvrtc.so
check-tools: $(BUILD)/lib/libcuda.so.1 $(BUILD)/lib/libptxemu_nvrtc.so
check-apps: $(BUILD)/lib/libcuda.so.1 $(BUILD)/lib/libptxemu_nvrtc.so
endif
# The driver's unit tests (tests/unit/driver) link its objects in, so that they also run in
# the sanitizer build.
$(BUILD)/tests/check_driver: $(patsubst %.c,$(BUILD)/tobj/%.o,$(driver_SRCS))
$(BUILD)/tests/check_driver: LDLIBS := $(BUILD)/tlib/libruntime.a $(BUILD)/tlib/libexec.a $(BUILD)/tlib/libfrontend.a $(BUILD)/tlib/libisa.a $(LDLIBS) -lnettle
