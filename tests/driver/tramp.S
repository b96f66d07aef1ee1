/* tramp.S: the logging shim's trampolines: slot I pushes I and enters one common stub,
 * which logs the arguments, calls the real function with them and logs its result. */
#define NSLOT 8192
    .text
    .globl drvlog_tramp_base
    .hidden drvlog_tramp_base
    .p2align 4
drvlog_tramp_base:
    .set i, 0
    .rept NSLOT
    .p2align 4
    pushq $i
    jmp drvlog_common
    .set i, i+1
    .endr

/* On entry: (%rsp) = slot, 8(%rsp) = return address, 16(%rsp) = the caller's stack
 * arguments.  Frame: rdi..r9 at -48..-8(%rbp), rax at -56, xmm0-7 at -80..-192,
 * 16 copied stack arguments at (%rsp)..128(%rsp). */
    .p2align 4
drvlog_common:
    pushq %rbp
    movq %rsp, %rbp
    subq $328, %rsp
    movq %rdi, -48(%rbp)
    movq %rsi, -40(%rbp)
    movq %rdx, -32(%rbp)
    movq %rcx, -24(%rbp)
    movq %r8, -16(%rbp)
    movq %r9, -8(%rbp)
    movq %rax, -56(%rbp)
    movdqu %xmm0, -80(%rbp)
    movdqu %xmm1, -96(%rbp)
    movdqu %xmm2, -112(%rbp)
    movdqu %xmm3, -128(%rbp)
    movdqu %xmm4, -144(%rbp)
    movdqu %xmm5, -160(%rbp)
    movdqu %xmm6, -176(%rbp)
    movdqu %xmm7, -192(%rbp)
    /* copy 16 stack arguments */
    xorl %ecx, %ecx
1:  movq 24(%rbp,%rcx,8), %rax
    movq %rax, (%rsp,%rcx,8)
    incl %ecx
    cmpl $16, %ecx
    jne 1b
    /* drvlog_enter(slot, regs) -> target */
    movq 8(%rbp), %rdi
    leaq -48(%rbp), %rsi
    movq %rsp, %rdx
    call drvlog_enter
    movq %rax, %r11
    movq -48(%rbp), %rdi
    movq -40(%rbp), %rsi
    movq -32(%rbp), %rdx
    movq -24(%rbp), %rcx
    movq -16(%rbp), %r8
    movq -8(%rbp), %r9
    movdqu -80(%rbp), %xmm0
    movdqu -96(%rbp), %xmm1
    movdqu -112(%rbp), %xmm2
    movdqu -128(%rbp), %xmm3
    movdqu -144(%rbp), %xmm4
    movdqu -160(%rbp), %xmm5
    movdqu -176(%rbp), %xmm6
    movdqu -192(%rbp), %xmm7
    movq -56(%rbp), %rax
    call *%r11
    /* drvlog_leave(slot, regs, result) -> result */
    movq 8(%rbp), %rdi
    leaq -48(%rbp), %rsi
    movq %rax, %rdx
    call drvlog_leave
    leave
    addq $8, %rsp
    ret
    .section .note.GNU-stack,"",@progbits
