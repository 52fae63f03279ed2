/** Noise of interleaved in-process variants: each repetition's ratio to the baseline run next to it. */
import { median } from './stats.mjs';

/**
 * The ratios `variant[i] / baseline[i]` of runs made in the same repetition (same load, same JIT state), as
 * `{ median, q1, q3 }`: the interquartile range is the noise figure reported next to a ratio of medians.
 *
 * @param {number[]} variant samples of one variant, in repetition order
 * @param {number[]} baseline samples of the baseline, in the same order
 */
export function pairedRatios(variant, baseline) {
  const ratios = variant.map((v, i) => v / baseline[i]).sort((a, b) => a - b);
  const at = (q) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))];
  return { median: median(ratios), q1: at(0.25), q3: at(0.75) };
}
