# exec/module.mk: libexec, the interpreter.
exec_SRCS := $(wildcard exec/*.c exec/*/*.c)
ifneq ($(exec_SRCS),)
$(eval $(call lib_template,exec))
endif
