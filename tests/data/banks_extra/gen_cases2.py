import random
random.seed(7)
cases=[]
def add(id,op,w,a): cases.append(f"{id} {op} {w} "+" ".join(map(str,a)))
X=1088
def per(f): return [f(i) for i in range(32)]
for w in (8,16):
    add(f"x4_period4_{w}","ld",w,per(lambda t: X+w*(t%4)))            # only t^4 agree
    add(f"x4_period4_conf_{w}","ld",w,per(lambda t: X+4096*(t%4)))     # only t^4, same bank
    add(f"x4_blocks_{w}","ld",w,per(lambda t: X+4096*((t>>1)&1)+ (128 if t&1 else 0)*0 + w*8*(t&1)))  # t^4 agree? 
    for k in range(3):
        v=[random.randrange(0,4096//w)*w for _ in range(16)]
        add(f"rnd_pairs1_{w}_{k}","ld",w,per(lambda t: v[t>>1]))
        add(f"rnd_pairs2_{w}_{k}","ld",w,per(lambda t: v[((t>>2)<<1)|(t&1)]))
        add(f"rnd_pairs1_st_{w}_{k}","st",w,per(lambda t: v[t>>1]))
    v=[random.randrange(0,4096//w)*w for _ in range(16)]
    add(f"rnd_pairs1_pred_{w}","ld",w,per(lambda t: v[t>>1] if t%5 else -1))
    add(f"rnd_pairs4_{w}","ld",w,per(lambda t: v[((t>>3)<<2)|(t&3)]))  # t^4 agree only
for w in (1,2,4):
    v=[random.randrange(0,4096//w)*w for _ in range(16)]
    add(f"rnd_pairs1_{w}","ld",w,per(lambda t: v[t>>1]))
open("cases.txt","w").write("\n".join(cases)+"\n")
print(len(cases))
