type RouterState = typeof window.__remixRouter.state;

/** No read of the page and no navigation under way: a new read would cut nothing short. */
const isQuiet = (state: RouterState) => state.revalidation === "idle" && state.navigation.state === "idle";

let owed = false;

/**
 * Reads the page again from the server, one read at a time. News heard while a read or a navigation is
 * under way waits for it to end, then starts one more read: a second read would cut the first short, and
 * Remix logs a read cut while its answer is being decoded as an error in the console. Several pieces of
 * news heard meanwhile are served by that one read, since it starts after all of them.
 */
export function readPageAgain() {
  const router = window.__remixRouter;
  // Remix draws what the router reads in a transition (v7_startTransition), never urgently.
  if (isQuiet(router.state)) return void router.revalidate();
  if (owed) return;
  owed = true;
  const stop = router.subscribe((state) => {
    if (!isQuiet(state)) return;
    stop();
    owed = false;
    // Outside the router's own notification, which is still running.
    queueMicrotask(readPageAgain);
  });
}
