/*
 * rigid_body.h - the torque-free rigid body on a unit quaternion
 * (tests/rigid_body.c): state [q (4), omega (3), tau], tangent coordinates
 * [rotation vector (3), omega (3), tau].
 */
#ifndef HES_TEST_RIGID_BODY_H
#define HES_TEST_RIGID_BODY_H

#include "hes.h"

enum { RB_NX = 8, RB_NT = 7 };

/* The model with the orbit about axis 1 (y, intermediate: free transverse
 * rates wx, wz) or else axis 2 (z: wx, wy); set the parameter "axis" to
 * match, and "I3" to move the major axis. */
const hes_model *test_rigid_body_model(int axis);
/* Its one mode and its tangent coordinates' names. */
extern const hes_mode test_rigid_body_modes[];
extern const char *const test_rigid_body_tangent_names[];

#endif
