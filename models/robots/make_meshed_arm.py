#!/usr/bin/env python3
"""Writes meshed_arm_description/: a six-joint arm shaped like the robot descriptions users bring
(a ROS package with urdf/ and meshes/, package:// paths, STL meshes in metres and one Collada
mesh in millimetres, URDF materials and the meshes' own colours, a mimic joint). Run from this
folder: python3 make_meshed_arm.py (the files are checked in; this rewrites them exactly)."""
import math
import os
import struct

PKG = "meshed_arm_description"


def cylinder(r, z0, z1, n=48):
    tris = []
    for k in range(n):
        a0, a1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n
        p0 = (r * math.cos(a0), r * math.sin(a0))
        p1 = (r * math.cos(a1), r * math.sin(a1))
        tris.append(((p0[0], p0[1], z0), (p1[0], p1[1], z0), (p1[0], p1[1], z1)))
        tris.append(((p0[0], p0[1], z0), (p1[0], p1[1], z1), (p0[0], p0[1], z1)))
        tris.append(((0, 0, z1), (p0[0], p0[1], z1), (p1[0], p1[1], z1)))
        tris.append(((0, 0, z0), (p1[0], p1[1], z0), (p0[0], p0[1], z0)))
    return tris


def sphere(r, c=(0, 0, 0), n=32, m=16):
    def pt(i, j):
        th, ph = math.pi * j / m, 2 * math.pi * i / n
        return (c[0] + r * math.sin(th) * math.cos(ph), c[1] + r * math.sin(th) * math.sin(ph), c[2] + r * math.cos(th))
    tris = []
    for i in range(n):
        for j in range(m):
            a, b, cc, d = pt(i, j), pt(i + 1, j), pt(i + 1, j + 1), pt(i, j + 1)
            if j > 0:
                tris.append((a, d, b))
            if j < m - 1:
                tris.append((b, d, cc))
    return tris


def along_x(tris):  # a z-axis shape turned to lie along +x
    return [tuple((p[2], p[1], -p[0]) for p in t) for t in tris]


def box(lo, hi):
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    f = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (1, 2, 6), (1, 6, 5), (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]
    return [tuple(v[i] for i in t) for t in f]


def stl(path, tris):
    with open(path, "wb") as out:
        out.write(b"meshed_arm".ljust(80, b" "))
        out.write(struct.pack("<I", len(tris)))
        for t in tris:
            out.write(struct.pack("<3f", 0, 0, 0))
            for p in t:
                out.write(struct.pack("<3f", *p))
            out.write(b"\0\0")


def dae_mm(path, tris, rgb):
    pts, idx = [], []
    for t in tris:
        for p in t:
            idx.append(len(pts))
            pts.append(p)
    floats = " ".join("%.3f" % (1000 * x) for p in pts for x in p)
    with open(path, "w") as out:
        out.write(f"""<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="millimeter" meter="0.001"/><up_axis>Z_UP</up_axis></asset>
  <library_effects><effect id="fx"><profile_COMMON><technique sid="t"><phong><diffuse><color>{rgb[0]} {rgb[1]} {rgb[2]} 1</color></diffuse></phong></technique></profile_COMMON></effect></library_effects>
  <library_materials><material id="m"><instance_effect url="#fx"/></material></library_materials>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="{3 * len(pts)}">{floats}</float_array>
      <technique_common><accessor source="#pa" count="{len(pts)}" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles material="mat" count="{len(tris)}"><input semantic="VERTEX" source="#v" offset="0"/><p>{" ".join(map(str, idx))}</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"><bind_material><technique_common><instance_material symbol="mat" target="#m"/></technique_common></bind_material></instance_geometry></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
""")


def main():
    os.makedirs(f"{PKG}/meshes", exist_ok=True)
    os.makedirs(f"{PKG}/urdf", exist_ok=True)
    dae_mm(f"{PKG}/meshes/base.dae", cylinder(0.12, 0, 0.08, 64) + cylinder(0.07, 0.08, 0.1, 64), (0.35, 0.37, 0.4))
    stl(f"{PKG}/meshes/shoulder.stl", cylinder(0.065, 0, 0.16) + sphere(0.07, (0, 0, 0.16)))
    stl(f"{PKG}/meshes/upper_arm.stl", along_x(cylinder(0.045, 0, 0.4)) + sphere(0.055, (0.4, 0, 0)))
    stl(f"{PKG}/meshes/forearm.stl", along_x(cylinder(0.035, 0, 0.32)) + sphere(0.045, (0.32, 0, 0)))
    stl(f"{PKG}/meshes/wrist.stl", along_x(cylinder(0.04, 0, 0.06)) + box((0.06, -0.06, -0.02), (0.08, 0.06, 0.02)))
    stl(f"{PKG}/meshes/finger.stl", box((0, -0.008, -0.012), (0.07, 0.008, 0.012)))
    with open(f"{PKG}/package.xml", "w") as out:
        out.write(f"""<?xml version="1.0"?>
<package format="2">
  <name>{PKG}</name>
  <version>1.0.0</version>
  <description>A six-joint arm with meshes, as robot description packages are laid out (Articulate's example)</description>
  <maintainer email="articulate@example.org">Articulate</maintainer>
  <license>BSD</license>
</package>
""")
    def inertial(m, com, i):
        return (f'    <inertial><origin xyz="{com}" rpy="0 0 0"/><mass value="{m}"/>'
                f'<inertia ixx="{i[0]}" iyy="{i[1]}" izz="{i[2]}" ixy="0" ixz="0" iyz="0"/></inertial>\n')
    def link(name, mesh, m, com, i, material=""):
        return (f'  <link name="{name}">\n' + inertial(m, com, i) +
                f'    <visual><geometry><mesh filename="package://{PKG}/meshes/{mesh}"/></geometry>{material}</visual>\n'
                f'    <collision><geometry><mesh filename="package://{PKG}/meshes/{mesh}"/></geometry></collision>\n  </link>\n')
    orange = '<material name="orange"><color rgba="0.9 0.45 0.1 1"/></material>'
    grey = '<material name="light"><color rgba="0.8 0.8 0.82 1"/></material>'
    def joint(name, kind, parent, child, xyz, axis, extra=""):
        limit = '<limit lower="-2.8" upper="2.8" effort="80" velocity="2"/>' if kind == "revolute" else (
            '<limit lower="0" upper="0.03" effort="20" velocity="0.1"/>' if kind == "prismatic" else "")
        ax = f'<axis xyz="{axis}"/>' if kind != "fixed" else ""
        return (f'  <joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
                f'<origin xyz="{xyz}" rpy="0 0 0"/>{ax}{limit}{extra}<dynamics damping="0.5" friction="0.1"/></joint>\n')
    urdf = ('<?xml version="1.0"?>\n<!-- written by make_meshed_arm.py -->\n<robot name="meshed_arm">\n'
            '  <link name="world"/>\n' + joint("world_joint", "fixed", "world", "base", "0 0 0", "") +
            link("base", "base.dae", 4.0, "0 0 0.05", (0.02, 0.02, 0.03)) +
            link("shoulder", "shoulder.stl", 2.0, "0 0 0.08", (0.01, 0.01, 0.005), orange) +
            joint("shoulder_pan", "revolute", "base", "shoulder", "0 0 0.1", "0 0 1") +
            link("upper_arm", "upper_arm.stl", 2.5, "0.2 0 0", (0.004, 0.035, 0.035), grey) +
            joint("shoulder_lift", "revolute", "shoulder", "upper_arm", "0 0 0.16", "0 -1 0") +
            link("forearm", "forearm.stl", 1.5, "0.16 0 0", (0.002, 0.014, 0.014), orange) +
            joint("elbow", "revolute", "upper_arm", "forearm", "0.4 0 0", "0 -1 0") +
            link("wrist", "wrist.stl", 0.5, "0.04 0 0", (0.0005, 0.0005, 0.0005), grey) +
            joint("wrist_roll", "revolute", "forearm", "wrist", "0.32 0 0", "1 0 0") +
            link("finger_left", "finger.stl", 0.1, "0.035 0 0", (0.00001, 0.00005, 0.00005), orange) +
            joint("finger_left_joint", "prismatic", "wrist", "finger_left", "0.08 0.02 0", "0 1 0") +
            link("finger_right", "finger.stl", 0.1, "0.035 0 0", (0.00001, 0.00005, 0.00005), orange) +
            joint("finger_right_joint", "prismatic", "wrist", "finger_right", "0.08 -0.02 0", "0 -1 0",
                  '<mimic joint="finger_left_joint" multiplier="1" offset="0"/>') +
            "</robot>\n")
    with open(f"{PKG}/urdf/meshed_arm.urdf", "w") as out:
        out.write(urdf)


if __name__ == "__main__":
    main()
