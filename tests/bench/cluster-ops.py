#!/usr/bin/env python3
# cluster-ops.py REDIS_PORT "NODE_A_PORT NODE_B_PORT" [MATCHES] -- Redis
# operations and bytes per move between two nodes (docs/performance.md).
# Starts nothing: run redis-server and two tttd --redis first (see
# run-cluster-ops.sh).  Pairs MATCHES players of node A with players of
# node B, plays one five-move game in each, and counts Redis's commands
# (INFO commandstats) during the game, less what the same time costs idle
# (the nodes' heartbeats and PINGs).
import socket, subprocess, sys, time
RP=sys.argv[1]
PA,PB=(int(x) for x in sys.argv[2].split())
def stats():
    out=subprocess.run(["redis-cli","-p",RP,"info","commandstats"],capture_output=True,text=True).stdout
    d={}
    for l in out.splitlines():
        if l.startswith("cmdstat_"):
            k,v=l.split(":",1); d[k[8:]]=int(v.split(",")[0].split("=")[1])
    net=subprocess.run(["redis-cli","-p",RP,"info","stats"],capture_output=True,text=True).stdout
    for l in net.splitlines():
        if l.startswith("total_net_input_bytes") or l.startswith("total_net_output_bytes"):
            k,v=l.strip().split(":"); d[k]=int(v)
    return d
def conn(p):
    s=socket.create_connection(("127.0.0.1",p)); s.settimeout(0.5); return s
def rd(s):
    out=b""
    try:
        while True:
            d=s.recv(65536)
            if not d: break
            out+=d
    except socket.timeout: pass
    return out.decode()
N=int(sys.argv[3]) if len(sys.argv) > 3 else 20
a=[];b=[]
for i in range(N):
    a.append(conn(PA)); time.sleep(0.55); b.append(conn(PB)); time.sleep(0.6)
time.sleep(1)
starts=[]
for i in range(N):
    ra=rd(a[i]); rb=rd(b[i])
    assert "MATCH" in ra and "MATCH" in rb, (ra,rb)
    starts.append(0 if "START X" in ra else 1)
s0=stats(); t0=time.time()
moves=["A1","A2","B1","B2","C1"]
for k,m in enumerate(moves):
    for i in range(N):
        p=[a[i],b[i]][(starts[i]+k)%2]
        p.send(("MOVE %s\r\n"%m).encode())
    time.sleep(0.3)
    for i in range(N): rd(a[i]); rd(b[i])
# every line delivered; then the background (PINGs, heartbeats) over as
# long a time, subtracted
time.sleep(1)
for i in range(N): rd(a[i]); rd(b[i])
el=time.time()-t0
s1=stats()
time.sleep(el)
s2=stats()
tot=0
for k in sorted(set(s1)|set(s0)):
    if k.startswith("total_"): continue
    d=s1.get(k,0)-s0.get(k,0); bg=s2.get(k,0)-s1.get(k,0)
    print(k, d, "background", bg)
    tot+=d-bg
mv=N*5
print("moves",mv,"redis ops per move %.2f"%(tot/mv))
for k in ("total_net_input_bytes","total_net_output_bytes"):
    d=s1[k]-s0[k]; bg=s2[k]-s1[k]
    print(k,"per move %.0f"%((d-bg)/mv))
