# The expected output of tests/golden/alloca_dyn (the C arithmetic of alloca_dyn.cu):
#   python3 alloca_dyn_model.py 40 8 96
M=0xffffffff
def fill_sum(n,salt):
    a=[(i*salt+1)&M for i in range(n)]
    h=[0]*8
    for i in range(n): h[(i*salt)&7]=(h[(i*salt)&7]+i)&M
    s=0
    for i in range(n): s=(s+a[n-1-i]*(i+1))&M
    return (s+h[salt&7])&M
def kern(t,n,rounds):
    m=n+t%13
    loc=[0]*16
    for i in range(16): loc[(t+i*5)&15]=(t*i)&M
    buf=[t^(i*7) for i in range(m)]
    acc=0
    for r in range(rounds): acc=(acc+fill_sum(m+r,t+r))&M
    chk=0
    for i in range(m): chk=(chk+buf[i]*(i+1))&M
    lc=0
    for i in range(16): lc=(lc+loc[(t*3+i)&15]*(i+1))&M
    return [acc,chk,lc]
import sys
n,rounds,T=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3])
out=[]
for t in range(T): out+=kern(t,n,rounds)
print('arg0 u32[%d]: %s'%(len(out),' '.join(map(str,out))))
