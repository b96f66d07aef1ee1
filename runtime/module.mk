# runtime/module.mk: libruntime, launching kernels and the CUDA runtime replacement.
runtime_SRCS := $(wildcard runtime/*.c)
ifneq ($(runtime_SRCS),)
$(eval $(call lib_template,runtime))
endif
