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
 * Resolves after the next frame has been painted: a requestAnimationFrame callback runs before
 * that frame's paint, and a task posted from it runs after. Resolves at once when the page is
 * hidden (no frames come) and after `maxWaitMs` at most, so a throttled page never stalls a run.
 */
export function afterNextPaint(maxWaitMs = 100): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function' || document.visibilityState !== 'visible') {
      resolve();
      return;
    }
    const timer = setTimeout(resolve, maxWaitMs);
    requestAnimationFrame(() => {
      void yieldToEventLoop().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  });
}
