// Spatial algebra and joint models against their explicit matrix definitions (spatial_v2).
#include <QtTest>

#include "test_main.h"

#include "../../engine/dynamics/src/detail.h"  // detail::SinCosBlocks (private to the engine)
#include "articulate/spatial/joint.h"
#include "test_util.h"

using namespace art;

namespace {

Mat6 crm(const Vec6& v) {
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = skew(v.head<3>());
  M.bottomRightCorner<3, 3>() = skew(v.head<3>());
  M.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
  return M;
}

Mat3 crmPlanar(const Vec3& v) {
  Mat3 M;
  M << 0, 0, 0, v(2), 0, -v(0), -v(1), v(0), 0;
  return M;
}

// rot(E) and xlt(r) built as spatial_v2 builds them
Mat6 rotMatrix(const Mat3& E) {
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = E;
  X.bottomRightCorner<3, 3>() = E;
  return X;
}
Mat6 xltMatrix(const Vec3& r) {
  Mat6 X = Mat6::Identity();
  X.bottomLeftCorner<3, 3>() = -skew(r);
  return X;
}

SpatialTransform randomTransform(std::mt19937& rng) {
  const Eigen::VectorXd a = testutil::randomVector(6, rng, -3, 3);
  return {rotxE(a(0)) * rotyE(a(1)) * rotzE(a(2)), a.tail<3>()};
}

Mat6 randomSymmetric(std::mt19937& rng) {
  const Eigen::MatrixXd A = testutil::randomMatrix(6, 6, rng);
  return A * A.transpose();
}

// a revolute joint's transform on a tree transform without rotation, applied as a shift and
// a rotation of two coordinates, against the 6x6 matrix rot(rotk(q)) * xlt(r) of spatial_v2
template <int K>
void checkAxisTransform(std::mt19937& rng, Mat3 (*rot)(double)) {
  for (int n = 0; n < 20; ++n) {
    const Eigen::VectorXd a = testutil::randomVector(4, rng, -3, 3);
    const SpatialTransform X{rot(a(0)), a.tail<3>()};
    const AxisTransform<K> Y = AxisTransform<K>::from(X);
    QCOMPARE(Y.c, std::cos(a(0)));
    QCOMPARE(Y.s, std::sin(a(0)));
    const Mat6 Xm = rotMatrix(rot(a(0))) * xltMatrix(a.tail<3>());
    const Vec6 m = testutil::randomVector(6, rng);
    QVERIFY((Y.apply(m) - Xm * m).norm() < 1e-12);
    QVERIFY((Y.applyTransposeForce(m) - Xm.transpose() * m).norm() < 1e-12);
    const Mat6 I = randomSymmetric(rng), B = randomSymmetric(rng);
    const Mat6 base = 0.5 * (B + B.transpose());  // exactly symmetric
    Mat6 out = base;
    Y.addTransposeTransformInertia(I, out);
    QVERIFY((out - base - Xm.transpose() * I * Xm).norm() < 1e-11);
    QVERIFY(out == out.transpose());  // the result is written symmetrically
  }
}

}  // namespace

class TestSpatial : public QObject {
  Q_OBJECT
 private slots:
  void transformMatchesDefinition() {
    std::mt19937 rng(1);
    for (int k = 0; k < 20; ++k) {
      const SpatialTransform X = randomTransform(rng);
      const Mat6 Xm = X.matrix();
      QVERIFY((Xm - rotMatrix(X.E) * xltMatrix(X.r)).norm() < 1e-12);
      const Vec6 m = testutil::randomVector(6, rng);
      QVERIFY((X.apply(m) - Xm * m).norm() < 1e-12);
      QVERIFY((X.applyInverse(m) - Xm.inverse() * m).norm() < 1e-12);
      QVERIFY((X.applyForce(m) - Xm.inverse().transpose() * m).norm() < 1e-12);
      QVERIFY((X.applyTransposeForce(m) - Xm.transpose() * m).norm() < 1e-12);
      const Mat6 I = randomSymmetric(rng);
      QVERIFY((X.transposeTransformInertia(I) - Xm.transpose() * I * Xm).norm() < 1e-11);
      const SpatialTransform Y = randomTransform(rng);
      QVERIFY(((X * Y).matrix() - Xm * Y.matrix()).norm() < 1e-12);
      QVERIFY((X.inverse().matrix() - Xm.inverse()).norm() < 1e-12);
    }
  }

  void axisTransformMatchesDefinition() {
    std::mt19937 rng(7);
    checkAxisTransform<0>(rng, rotxE);
    checkAxisTransform<1>(rng, rotyE);
    checkAxisTransform<2>(rng, rotzE);
  }

  void planarTransformMatchesDefinition() {
    std::mt19937 rng(2);
    for (int k = 0; k < 20; ++k) {
      const Eigen::VectorXd a = testutil::randomVector(6, rng, -3, 3);
      const PlanarTransform X = PlanarTransform::make(a(0), a.segment<2>(1));
      const PlanarTransform Y = PlanarTransform::make(a(3), a.segment<2>(4));
      const Mat3 Xm = X.matrix();
      // plnr(theta, r) as spatial_v2 defines it
      const double c = std::cos(a(0)), s = std::sin(a(0)), rx = a(1), ry = a(2);
      Mat3 ref;
      ref << 1, 0, 0, s * rx - c * ry, c, s, c * rx + s * ry, -s, c;
      QVERIFY((Xm - ref).norm() < 1e-14);
      const Vec3 m = testutil::randomVector(3, rng);
      QVERIFY((X.apply(m) - Xm * m).norm() < 1e-12);
      QVERIFY((X.applyInverse(m) - Xm.inverse() * m).norm() < 1e-12);
      QVERIFY((X.applyForce(m) - Xm.inverse().transpose() * m).norm() < 1e-12);
      QVERIFY((X.applyTransposeForce(m) - Xm.transpose() * m).norm() < 1e-12);
      QVERIFY(((X * Y).matrix() - Xm * Y.matrix()).norm() < 1e-12);
      QVERIFY((X.inverse().matrix() - Xm.inverse()).norm() < 1e-12);
    }
  }

  void crossProductsMatchOperators() {
    std::mt19937 rng(3);
    for (int k = 0; k < 20; ++k) {
      const Vec6 v = testutil::randomVector(6, rng), m = testutil::randomVector(6, rng);
      QVERIFY((crossMotion(v, m) - crm(v) * m).norm() < 1e-13);
      QVERIFY((crossForce(v, m) + crm(v).transpose() * m).norm() < 1e-13);
      const Vec3 vp = testutil::randomVector(3, rng), mp = testutil::randomVector(3, rng);
      QVERIFY((crossMotion(vp, mp) - crmPlanar(vp) * mp).norm() < 1e-13);
      QVERIFY((crossForce(vp, mp) + crmPlanar(vp).transpose() * mp).norm() < 1e-13);
    }
  }

  void spatialInertiaMatchesMcI() {
    const Vec3 c(0.1, -0.2, 0.3);
    const Mat3 Ic = Vec3(1, 2, 2.5).asDiagonal();
    const Mat6 I = spatialInertia(2.0, c, Ic);
    // about the COM the inertia is block diagonal: shifting by c must give diag(Ic, m 1)
    const Mat6 atCom = SpatialTransform::translation(-c).transposeTransformInertia(I);
    Mat6 expect = Mat6::Zero();
    expect.topLeftCorner<3, 3>() = Ic;
    expect.bottomRightCorner<3, 3>() = 2.0 * Mat3::Identity();
    QVERIFY((atCom - expect).norm() < 1e-13);
    // planar inertia is the (wz, vx, vy) block of the spatial one
    const Mat6 Ip3 = spatialInertia(2.0, Vec3(0.1, -0.2, 0), Ic);
    const Mat3 P = planarInertia(2.0, Vec2(0.1, -0.2), 2.5);
    const int idx[3] = {2, 3, 4};
    for (int r = 0; r < 3; ++r)
      for (int cc = 0; cc < 3; ++cc) QCOMPARE(P(r, cc), Ip3(idx[r], idx[cc]));
  }

  void jointModels_data() {
    QTest::addColumn<QString>("code");
    QTest::addColumn<double>("pitch");
    for (const char* c : {"Rx", "Ry", "Rz", "R", "Px", "Py", "Pz", "P", "H"})
      QTest::newRow(c) << QString(c) << 0.3;
  }
  void jointModels() {
    QFETCH(QString, code);
    QFETCH(double, pitch);
    Joint j;
    QVERIFY(parseJointCode(code.toStdString(), j.type));
    j.pitch = pitch;
    const double q = 0.7;
    Mat6 XJ;
    Vec6 S = Vec6::Zero();
    const std::string c = code.toStdString();
    // spatial_v2 jcalc, written out
    if (c == "Rx") { XJ = rotMatrix(rotxE(q)); S(0) = 1; }
    else if (c == "Ry") { XJ = rotMatrix(rotyE(q)); S(1) = 1; }
    else if (c == "Rz" || c == "R") { XJ = rotMatrix(rotzE(q)); S(2) = 1; }
    else if (c == "Px") { XJ = xltMatrix(Vec3(q, 0, 0)); S(3) = 1; }
    else if (c == "Py") { XJ = xltMatrix(Vec3(0, q, 0)); S(4) = 1; }
    else if (c == "Pz" || c == "P") { XJ = xltMatrix(Vec3(0, 0, q)); S(5) = 1; }
    else { XJ = rotMatrix(rotzE(q)) * xltMatrix(Vec3(0, 0, q * pitch)); S(2) = 1; S(5) = pitch; }
    QVERIFY((j.transform(q).matrix() - XJ).norm() < 1e-14);
    QVERIFY((j.subspace() - S).norm() == 0.0);
    // the axis: what the joint turns about (revolute, helical) or slides along (prismatic)
    const Vec3 axis = S.head<3>().norm() > 0 ? Vec3(S.head<3>()) : Vec3(S.tail<3>());
    QCOMPARE(j.axis(), axis);
    // the structured product equals the general composition
    std::mt19937 rng(4);
    const SpatialTransform Xtree = randomTransform(rng);
    QVERIFY((j.transformTimes(q, Xtree).matrix() - XJ * Xtree.matrix()).norm() < 1e-13);
    // the motion subspace is the derivative of the joint transform: dXJ/dq XJ^-1 = -crm(S)
    const double h = 1e-6;
    const Mat6 dX = (j.transform(q + h).matrix() - j.transform(q - h).matrix()) / (2 * h);
    QVERIFY((dX * XJ.inverse() + crm(S)).norm() < 1e-8);
  }

  void planarJointModels() {
    for (const char* c : {"r", "px", "py"}) {
      Joint j;
      QVERIFY(parseJointCode(c, j.type));
      QVERIFY(isPlanar(j.type));
      const double q = -0.4;
      const Mat3 X = j.planarTransform(q).matrix();
      const Vec3 S = j.planarSubspace();
      const double h = 1e-6;
      const Mat3 dX = (j.planarTransform(q + h).matrix() - j.planarTransform(q - h).matrix()) / (2 * h);
      QVERIFY((dX * X.inverse() + crmPlanar(S)).norm() < 1e-8);
      // planar joints turn about z or slide along x or y of the plane
      QCOMPARE(j.axis(), std::string(c) == "r" ? Vec3::UnitZ() : std::string(c) == "px" ? Vec3::UnitX() : Vec3::UnitY());
    }
    Joint free;
    free.type = JointType::Free;
    QCOMPARE(free.axis(), Vec3::Zero());
  }

  void rpyAnglesRebuildTheRotation() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-M_PI, M_PI);
    for (int k = 0; k < 200; ++k) {
      // random rotations, and some with pitch within 1e-7 of +-90 degrees
      Vec3 rpy(u(rng), 0.5 * u(rng), u(rng));
      if (k % 4 == 0) rpy(1) = (k % 8 == 0 ? 1 : -1) * (M_PI / 2 - 1e-7 * (k % 3));
      const Mat3 R = rpyRotation(rpy);
      QVERIFY(isProperRotation(R, 1e-12));
      QVERIFY2((rpyRotation(rpyAngles(R)) - R).norm() < 1e-14, qPrintable(QString::number(k)));
    }
    // the convention: R = Rz(yaw) Ry(pitch) Rx(roll), active
    const Vec3 rpy(0.1, -0.2, 0.3);
    const Mat3 R = (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(-0.2, Vec3::UnitY()) *
                    Eigen::AngleAxisd(0.1, Vec3::UnitX())).toRotationMatrix();
    QVERIFY((rpyRotation(rpy) - R).norm() < 1e-15);
    QVERIFY((rpyAngles(R) - rpy).norm() < 1e-14);
  }

  // the blocked sines and cosines of ABA's and the energy check's outward passes (libmvec where
  // built with it) against std::sin and std::cos: a few blocks and a partial last one, large
  // angles, and asked for in the order a tree with skipped joints asks
  void sinCosBlocksMatchTheLibrary() {
    std::mt19937 rng(5);
    const Eigen::VectorXd q = testutil::randomVector(29, rng, -60, 60);
    detail::SinCosBlocks angles(q);
    for (int i = 0; i < q.size(); i += (i % 5 == 3 ? 2 : 1)) {
      double s = 2, c = 2;
      angles.get(i, s, c);
      QVERIFY2(std::abs(s - std::sin(q(i))) <= 4e-16 && std::abs(c - std::cos(q(i))) <= 4e-16,
               qPrintable(QString::number(i)));
    }
    // asked again from the start (a second pass over the same q)
    double s = 2, c = 2;
    angles.get(0, s, c);
    QVERIFY(std::abs(s - std::sin(q(0))) <= 4e-16 && std::abs(c - std::cos(q(0))) <= 4e-16);
  }

  void unknownJointCode() {
    JointType t;
    QVERIFY(!parseJointCode("Rq", t));
    QVERIFY(!parseJointCode("", t));
    QVERIFY(!parseJointCode("rx", t));
  }
};

ARTICULATE_TEST_MAIN(TestSpatial)
#include "test_spatial.moc"
