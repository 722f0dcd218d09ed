cases=[]
def add(id,op,w,a): cases.append(f"{id} {op} {w} "+" ".join(map(str,a)))
X,Y,Z,W=1024+64,2048+200,3072+16,512+272
def per(f): return [f(i) for i in range(32)]
for w in (8,16):
    Yw = Y - Y%w; Zw=Z-Z%w; Ww=W-W%w
    add(f"all_same_{w}","ld",w,[X]*32)
    add(f"all_same_st_{w}","st",w,[X]*32)
    add(f"half_XY_{w}","ld",w,per(lambda i: X if i<16 else Yw))
    add(f"half_X_Xp4096_{w}","ld",w,per(lambda i: X if i<16 else X+4096))
    add(f"half_X_Xp8w_{w}","ld",w,per(lambda i: X if i<16 else X+w))
    add(f"q_X_Y_X_Y_{w}","ld",w,per(lambda i: X if (i//8)%2==0 else Yw))
    add(f"q_XYZW_{w}","ld",w,per(lambda i: [X,Yw,Zw,Ww][i//8]))
    add(f"alt_X_Xpw_{w}","ld",w,per(lambda i: X if i%2==0 else X+w))
    add(f"one_off_same_bank_{w}","ld",w,per(lambda i: X if i<31 else X+4096))
    add(f"one_off_next_{w}","ld",w,per(lambda i: X if i<31 else X+w))
    add(f"one_pred_{w}","ld",w,per(lambda i: X if i<31 else -1))
    add(f"lo16_only_{w}","ld",w,per(lambda i: X if i<16 else -1))
    add(f"q0q2_only_{w}","ld",w,per(lambda i: X if (i//8)%2==0 else -1))
    add(f"lanes_0_31_{w}","ld",w,per(lambda i: X if i in (0,31) else -1))
    add(f"lanes_0_8_{w}","ld",w,per(lambda i: X if i in (0,8) else -1))
    add(f"lanes_0_16_{w}","ld",w,per(lambda i: X if i in (0,16) else -1))
    add(f"phase_consec_then_same_{w}","ld",w,per(lambda i: (X//128*128 + (i%(128//w))*w) if i < 128//w else X))
    add(f"all_pairs_same_{w}","ld",w,per(lambda i: X + (i//2)%(128//w)*w))
    add(f"same_in_each_phase_repeat_{w}","ld",w,per(lambda i: X//128*128 + (i%(128//w))*w))
    add(f"two_addr_same_bank_all_{w}","ld",w,per(lambda i: X if i%2==0 else X+4096))
for w in (1,2,4):
    add(f"all_same_{w}","ld",w,[X]*32)
add("ldsm1_same","ldsm1",16,[X]*8+[0]*24)
add("ldsm2_same","ldsm2",16,[X]*16+[0]*16)
add("ldsm4_same","ldsm4",16,[X]*32)
add("ldsm4_m01_same","ldsm4",16,[X]*16+[X+128*i for i in range(16)])
open("cases.txt","w").write("\n".join(cases)+"\n")
print(len(cases))
