#!/usr/bin/env python3
"""Writes mjcf_quadruped/: a twelve-joint quadruped in MJCF shaped like the MuJoCo models users
bring (an <include>d defaults file, visual and collision classes, STL meshes under meshdir, a floor
plane, a free joint, actuators). Run from this folder: python3 make_mjcf_quadruped.py (the files
are checked in; this rewrites them exactly). Mesh shapes come from make_meshed_arm.py."""
import os

from make_meshed_arm import along_x, box, cylinder, sphere, stl

DIR = "mjcf_quadruped"
THIGH, SHANK, FOOT = 0.22, 0.22, 0.03

DEFAULTS = """<mujoco>
  <!-- the classes of mjcf_quadruped/quadruped.xml (written by make_mjcf_quadruped.py) -->
  <default>
    <joint damping="0.5" frictionloss="1.5"/>
    <default class="visual">
      <geom type="mesh" group="2" contype="0" conaffinity="0" density="0"/>
    </default>
    <default class="collision">
      <geom group="3" density="1000"/>
      <default class="foot"><geom type="sphere" size="%g"/></default>
    </default>
    <default class="abduct"><joint axis="1 0 0" range="-30 30"/></default>
    <default class="flex"><joint axis="0 1 0" range="-60 60"/></default>
    <default class="knee"><joint axis="0 1 0" range="-10 150"/></default>
  </default>
</mujoco>
""" % FOOT


def leg(name, x, y):
    side = 0.05 if y > 0 else -0.05
    return f"""      <body name="{name}_hip" pos="{x} {y} 0">
        <joint name="{name}_abduct" class="abduct"/>
        <geom class="visual" mesh="hip" material="grey"/>
        <geom class="collision" type="cylinder" size="0.04 0.03" zaxis="0 1 0"/>
        <body name="{name}_thigh" pos="0 {side} 0">
          <joint name="{name}_flex" class="flex"/>
          <geom class="visual" mesh="thigh" material="grey"/>
          <geom class="collision" type="capsule" fromto="0 0 0 0 0 -{THIGH}" size="0.03"/>
          <body name="{name}_shank" pos="0 0 -{THIGH}">
            <joint name="{name}_knee" class="knee"/>
            <geom class="visual" mesh="shank" material="body"/>
            <geom class="collision" type="capsule" fromto="0 0 0 0 0 -{SHANK - FOOT}" size="0.02" density="500"/>
            <geom class="foot" pos="0 0 -{SHANK}"/>
          </body>
        </body>
      </body>
"""


def main():
    os.makedirs(f"{DIR}/meshes", exist_ok=True)
    stl(f"{DIR}/meshes/torso.stl", box((-0.3, -0.12, -0.06), (0.3, 0.12, 0.06)) + sphere(0.08, (0.32, 0, 0.04)))
    stl(f"{DIR}/meshes/hip.stl", [tuple((p[0], p[2], p[1]) for p in t) for t in cylinder(0.045, -0.035, 0.035)])
    stl(f"{DIR}/meshes/thigh.stl", [tuple((p[0], p[1], -p[2]) for p in t) for t in cylinder(0.032, 0, THIGH)] + sphere(0.04, (0, 0, -THIGH)))
    stl(f"{DIR}/meshes/shank.stl", [tuple((p[0], p[1], -p[2]) for p in t) for t in cylinder(0.022, 0, SHANK)] + sphere(FOOT, (0, 0, -SHANK)))
    with open(f"{DIR}/defaults.xml", "w") as out:
        out.write(DEFAULTS)
    legs = "".join(leg(n, x, y) for n, x, y in (("FL", 0.24, 0.14), ("FR", 0.24, -0.14), ("HL", -0.24, 0.14), ("HR", -0.24, -0.14)))
    motors = "".join(f'    <motor joint="{n}_{j}" gear="20" ctrlrange="-1 1"/>\n' for n in ("FL", "FR", "HL", "HR") for j in ("abduct", "flex", "knee"))
    height = THIGH + SHANK + FOOT + 0.05
    with open(f"{DIR}/quadruped.xml", "w") as out:
        out.write(f"""<!-- written by make_mjcf_quadruped.py -->
<mujoco model="mjcf_quadruped">
  <compiler angle="degree" meshdir="meshes" autolimits="true"/>
  <option timestep="0.002" integrator="RK4"/>
  <include file="defaults.xml"/>
  <asset>
    <mesh file="torso.stl"/>
    <mesh file="hip.stl"/>
    <mesh file="thigh.stl"/>
    <mesh file="shank.stl"/>
    <material name="body" rgba="0.9 0.45 0.1 1"/>
    <material name="grey" rgba="0.8 0.8 0.82 1"/>
  </asset>
  <worldbody>
    <light pos="0 0 3" dir="0 0 -1"/>
    <geom name="floor" type="plane" size="5 5 0.1" rgba="0.6 0.6 0.6 1"/>
    <body name="torso" pos="0 0 {height:g}">
      <freejoint name="root"/>
      <geom class="visual" mesh="torso" material="body"/>
      <geom class="collision" type="box" size="0.3 0.12 0.06"/>
{legs}    </body>
  </worldbody>
  <actuator>
{motors}  </actuator>
</mujoco>
""")


if __name__ == "__main__":
    main()
