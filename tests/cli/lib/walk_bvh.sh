# A tiny capture for the CLI's tests: hips, a two-bone leg and a spine, three frames of a walk (the leg
# swings 0, 30, 60 degrees at its hip and bends 0, -40, -80 at its knee).
# usage: write_walk_bvh FILE
write_walk_bvh() {
    cat >"$1" <<'BVH'
HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation
  JOINT LeftUpLeg
  {
    OFFSET 1 -1 0
    CHANNELS 3 Zrotation Yrotation Xrotation
    JOINT LeftLeg
    {
      OFFSET 0 -4 0
      CHANNELS 3 Zrotation Yrotation Xrotation
      End Site
      {
        OFFSET 0 -4 0
      }
    }
  }
  JOINT Spine
  {
    OFFSET 0 3 0
    CHANNELS 3 Zrotation Yrotation Xrotation
    End Site
    {
      OFFSET 0 4 0
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.1
0 9 0 0 0 0 0 0 0 0 0 0 0 0 0
0 9 1 0 0 0 0 0 30 0 0 -40 0 0 10
0 9 2 0 0 0 0 0 60 0 0 -80 0 0 20
BVH
}
