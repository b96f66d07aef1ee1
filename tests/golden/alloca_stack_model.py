# The expected output of tests/golden/alloca_stack (alloca_stack.ptx by hand):
#   python3 alloca_stack_model.py 37 80
import sys
def g(seed, rounds):
    s=0
    for q in range(rounds):
        size=((q*29+seed)&127)+1
        b1=(seed+q)&0xff; b2=(seed+q+3)&0xff
        if size==1: b1=b2
        s+=b1+b2
    return s
def kern(t,n):
    s=0; gs=0
    for r in range(n):
        size=((t*7+r*13)&255)+1
        v=t+r
        b1=v&0xff; b2=(v*5)&0xff
        if size==1: b1=b2
        s+=b1+b2
        gs+=g(v, r%5)
    return [s&0xffffffff,0,0,0,gs&0xffffffff]
n,T=int(sys.argv[1]),int(sys.argv[2])
out=[]
for t in range(T): out+=kern(t,n)
print('arg0 u32[%d]: %s'%(len(out),' '.join(map(str,out))))
