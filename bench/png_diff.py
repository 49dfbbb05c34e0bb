#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""png_diff.py A.png B.png: the number of differing pixels of two 8-bit PNGs (and the first one),
for comparing frames before and after a renderer change. Standard library only."""
import sys, zlib, struct
def load(path):
    d=open(path,'rb').read(); assert d[:8]==b'\x89PNG\r\n\x1a\n'
    pos=8; idat=b''; 
    while pos<len(d):
        n,t=struct.unpack('>I4s',d[pos:pos+8]); c=d[pos+8:pos+8+n]; pos+=12+n
        if t==b'IHDR': w,h,bd,ct=struct.unpack('>IIBB',c[:10])
        elif t==b'IDAT': idat+=c
    bpp={2:3,6:4,0:1,4:2}[ct]; raw=zlib.decompress(idat); stride=w*bpp
    rows=[]; prev=bytearray(stride); i=0
    for y in range(h):
        f=raw[i]; line=bytearray(raw[i+1:i+1+stride]); i+=1+stride
        if f==1:
            for x in range(bpp,stride): line[x]=(line[x]+line[x-bpp])&255
        elif f==2:
            for x in range(stride): line[x]=(line[x]+prev[x])&255
        elif f==3:
            for x in range(stride): line[x]=(line[x]+((line[x-bpp] if x>=bpp else 0)+prev[x])//2)&255
        elif f==4:
            for x in range(stride):
                a=line[x-bpp] if x>=bpp else 0; b=prev[x]; c=prev[x-bpp] if x>=bpp else 0
                p=a+b-c; pa=abs(p-a); pb=abs(p-b); pc=abs(p-c)
                line[x]=(line[x]+(a if pa<=pb and pa<=pc else (b if pb<=pc else c)))&255
        rows.append(bytes(line)); prev=line
    return w,h,bpp,rows
a=load(sys.argv[1]); b=load(sys.argv[2])
if a[:3]!=b[:3]: print('size differs',a[:3],b[:3]); sys.exit(1)
w,h,bpp,ra=a; rb=b[3]; n=0; first=None
for y in range(h):
    if ra[y]!=rb[y]:
        for x in range(w):
            if ra[y][x*bpp:(x+1)*bpp]!=rb[y][x*bpp:(x+1)*bpp]:
                n+=1
                if first is None: first=(x,y,ra[y][x*bpp:(x+1)*bpp].hex(),rb[y][x*bpp:(x+1)*bpp].hex())
print(n, 'differing pixels', first if first else '')
