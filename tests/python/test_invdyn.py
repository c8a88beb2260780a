"""hes.invdyn against `hes invdyn --csv` (the program has no JSON document
for it: the result is arrays, and to_csv() is its table): the same table
for the same inputs along a trajectory file, at one state and along a gait
of a robot model, the arrays equal to its numbers, the quadruped at rest
carrying its weight, and bad input refused with hes.Error."""
import csv
import io
import math

import numpy as np
import pytest

import hes
from conftest import run_hes

pytestmark = pytest.mark.skipif("mujoco" not in hes.features,
                                reason="robot files need MuJoCo")

FEET = "lf_foot:1,rf_foot:1,lh_foot:1,rh_foot:1"
REST_Z = 2 * 0.08 * math.cos(0.5) - 0.16
REST_Q = [0, 0, REST_Z, 0, 0, 0] + [0, 0.5, -1] * 4


def program(*args, status=0):
    p = run_hes("invdyn", *args, "--csv", check=False)
    assert p.returncode == status, p.stderr
    return p.stdout


def check_arrays(r, table):
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == len(r.t)
    for n, row in enumerate(rows):
        assert float(row["t"]) == pytest.approx(r.t[n], rel=1e-9, abs=1e-12)
        assert row["status"] == r.status[n] and row["method"] == r.method
        for i, c in enumerate(r.contacts):
            assert float(row["fn:" + c]) == pytest.approx(r.f_normal[n, i], rel=1e-9, abs=1e-9)
            assert float(row["fx:" + c]) == pytest.approx(r.f_x[n, i], rel=1e-9, abs=1e-9)
            assert int(row["stance:" + c]) == r.stance[n, i]
        for k in range(r.tau.shape[1]):
            assert float(row[f"tau{k}"]) == pytest.approx(r.tau[n, k], rel=1e-9, abs=1e-9)


@pytest.fixture
def q3d(srcdir):
    return f"{srcdir}/share/robots/quadruped_3d.xml"


def test_at_rest_carries_the_weight(q3d):
    r = hes.invdyn(q3d, q=REST_Q, v=np.zeros(18), a=np.zeros(18), contacts=FEET)
    table = program(q3d, "--q", ",".join(map(repr, REST_Q)), "--v", ",".join(["0"] * 18),
                    "--a", ",".join(["0"] * 18), "--contacts", FEET)
    assert r.to_csv() == table
    check_arrays(r, table)
    # four feet carry the quadruped's 4.76 kg
    assert r.ok and r.f_normal.sum() == pytest.approx(4.76 * 9.81, rel=1e-9)
    assert r.f_y is not None and r.tangents == 2


def test_free_robot_quaternion_coordinates(srcdir, tmp_path):
    """The quadruped on a free joint: q has 19 values (the base's unit
    quaternion among them), v and a 18; at rest on its feet as the
    quadruped of slides and hinges, and spinning in free fall (the
    quaternion's velocities from differences on the manifold) its hips
    holding the legs against their centripetal force (0.0272 N m)."""
    qf = f"{srcdir}/share/robots/quadruped_free.xml"
    rest = [0, 0, 0.16 + REST_Z, 1, 0, 0, 0] + [0, 0.5, -1] * 4   # the base's own height
    r = hes.invdyn(qf, q=rest, v=np.zeros(18), a=np.zeros(18), contacts=FEET)
    table = program(qf, "--q", ",".join(map(repr, rest)), "--v", ",".join(["0"] * 18),
                    "--a", ",".join(["0"] * 18), "--contacts", FEET)
    assert r.to_csv() == table
    assert r.ok and r.f_normal.sum() == pytest.approx(4.76 * 9.81, rel=1e-9)
    t = np.arange(11) * 0.01
    q = np.zeros((11, 19))
    q[:, 2] = 1 + 0.5 * t - 0.5 * 9.81 * t ** 2
    q[:, 3], q[:, 6] = np.cos(2.5 * t), np.sin(2.5 * t)
    rs = hes.invdyn(qf, t=t, q=q)
    assert rs.ok and rs.tau[:, 1] == pytest.approx(0.0272, rel=1e-9)
    with pytest.raises(hes.Error, match="q needs 19 numbers"):
        hes.invdyn(qf, q=[0] * 18, v=np.zeros(18), a=np.zeros(18))


def test_trajectory_file_and_arrays(q3d, srcdir, tmp_path):
    lines = open(f"{srcdir}/share/data/quadruped_trot.csv").read().splitlines()
    f = tmp_path / "trot.csv"
    f.write_text("\n".join(lines[:31]) + "\n")
    r = hes.invdyn(q3d, trajectory=str(f), contacts=FEET, eom_tol=0.05)
    table = program(q3d, "--trajectory", str(f), "--contacts", FEET, "--eom-tol", "0.05")
    assert r.to_csv() == table
    check_arrays(r, table)
    # the same motion given as arrays
    data = np.array([row.split(",") for row in lines[1:31]], dtype=float)
    ra = hes.invdyn(q3d, t=data[:, 0], q=data[:, 1:19], stance=data[:, 19:], contacts=FEET,
                    eom_tol=0.05)
    assert ra.to_csv() == table
    # Coulomb on ice: infeasible nodes are reported, as the program's exit 1
    ice = hes.invdyn(q3d, trajectory=str(f), mu=0.01, method="coulomb")
    assert ice.to_csv() == program(q3d, "--trajectory", str(f), "--mu", "0.01", "--method",
                                   "coulomb", status=1)
    assert not ice.ok and ice.failed == int(np.sum(ice.status != "ok")) > 0


def test_urdf_with_motors(srcdir):
    urdf = f"{srcdir}/share/robots/compass_gait.urdf"
    q = [0, 0.995004165278, 0.1, -0.1]
    r = hes.invdyn(urdf, contacts="A:0.5", motors=["theta_T"], q=q, v=[0] * 4, a=[0] * 4)
    table = program(urdf, "--contacts", "A:0.5", "--motors", "theta_T", "--q",
                    ",".join(map(repr, q)), "--v", "0,0,0,0", "--a", "0,0,0,0", status=1)
    assert r.to_csv() == table
    assert r.motors == ["theta_T"] and r.f_y is None
    assert r.failed == 1 and "equation of motion fails" in r.message[0]


def test_gait_of_a_robot_model(srcdir, tmp_path):
    desc = f"{srcdir}/share/robots/knee_biped.json"
    gait = tmp_path / "gait.json"
    run_hes("trajopt", "--robot", desc, "-p", "slope=0", "--inputs", "constant", "--nodes",
            "9", "--refine", "1", "--quiet", "--objective", "energy", "-o", str(gait))
    r = hes.invdyn(hes.robot(desc), orbit=str(gait))
    table = program("--robot", desc, "--orbit", str(gait))
    assert r.to_csv() == table
    check_arrays(r, table)
    assert r.ok and r.motors == ["th1", "hip", "knee2", "knee1"]
    assert hes.invdyn(desc, orbit=str(gait)).to_csv() == table


@pytest.mark.parametrize("call, error", [
    (lambda d: hes.invdyn(d + "/share/robots/quadruped_3d.xml", q=REST_Q, v=[0] * 18,
                          a=[0] * 18, method="magic"), hes.InvalidArgument),
    (lambda d: hes.invdyn(d + "/share/robots/quadruped_3d.xml", q=[0, 0], v=[0, 0],
                          a=[0, 0]), hes.InvalidArgument),
    (lambda d: hes.invdyn(d + "/share/robots/quadruped_3d.xml", q=REST_Q, v=[0] * 18,
                          a=[0] * 18, dt=2), hes.InvalidArgument),
    (lambda d: hes.invdyn(d + "/share/robots/quadruped_3d.xml", q=REST_Q, v=[0] * 18,
                          a=[math.nan] * 18), hes.InvalidArgument),
    (lambda d: hes.invdyn(d + "/share/robots/quadruped_3d.xml", q=REST_Q), hes.InvalidArgument),
    (lambda d: hes.invdyn(d + "/share/robots/quadruped_3d.xml",
                          trajectory=d + "/share/robots/quadruped_3d.xml"), hes.InvalidArgument),
    (lambda d: hes.invdyn("/nonexistent.xml", q=[0], v=[0], a=[0]), hes.Error),
    (lambda d: hes.invdyn(d + "/share/robots/compass_gait.urdf", contacts="A:0.5",
                          motors="nosuch", q=[0, 1, 0, 0], v=[0] * 4, a=[0] * 4),
     hes.InvalidArgument),
    (lambda d: hes.invdyn("knee-biped", orbit="gait.json"), hes.InvalidArgument),
    (lambda d: hes.invdyn(d + "/share/robots/quadruped_3d.xml", trajectory="/dev/zero"),
     hes.InvalidArgument),
])
def test_bad_input(srcdir, call, error):
    with pytest.raises(error):
        call(srcdir)
