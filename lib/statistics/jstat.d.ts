/** The few jStat functions lib/statistics uses (jstat ships no types). */
declare module 'jstat' {
  interface Distribution2 {
    cdf(x: number, a: number, b: number): number;
    inv(p: number, a: number, b: number): number;
  }
  interface StudentT {
    cdf(x: number, dof: number): number;
    inv(p: number, dof: number): number;
  }
  interface JStatStatic {
    normal: Distribution2;
    studentt: StudentT;
    beta: Distribution2;
    gammaln(x: number): number;
    betaln(a: number, b: number): number;
    ibeta(x: number, a: number, b: number): number;
  }
  const jStat: { jStat: JStatStatic } & JStatStatic;
  export default jStat;
}
