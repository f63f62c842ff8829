/**
 * One turn of the event loop, for the gap between samples: input (Cancel) and rendering get
 * through there instead of waiting for the run to end. A MessageChannel message rather than
 * setTimeout, because chained timeouts clamp to 4 ms and background tabs throttle timers.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Resolves once what the page last rendered has been painted and rasterised: a
 * requestAnimationFrame callback runs before its frame's paint, raster then runs on other threads
 * while the next frame begins, so this waits for `frames` frames and a task after the last.
 * Resolves at once when the page is hidden (no frames come) and after `maxWaitMs` at most, so a
 * throttled page never stalls a run.
 */
export function afterNextPaint(frames = 2, maxWaitMs = 150): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function' || document.visibilityState !== 'visible') {
      resolve();
      return;
    }
    const timer = setTimeout(resolve, maxWaitMs);
    const frame = (left: number) =>
      requestAnimationFrame(() => {
        if (left > 1) frame(left - 1);
        else
          void yieldToEventLoop().then(() => {
            clearTimeout(timer);
            resolve();
          });
      });
    frame(frames);
  });
}
