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
