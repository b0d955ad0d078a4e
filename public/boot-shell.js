// The boot shell's one script (src/app/index.html): only the home screen starts with the banner; other
// routes boot with the bar alone. Runs before the first paint, before the app's JavaScript.
// A true first run at the root goes to the start screen (src/app/lib/first-run.ts, the same test), so it
// boots with the bar alone too.
function firstRun() {
  try {
    return ['start_seen', 'isLogin', 'token', 'login_info', 'language', 'base_settings'].every((k) => localStorage.getItem(k) === null);
  } catch {
    return false;
  }
}
if ((location.pathname !== '/' && location.pathname !== '/pages/index/index') || (location.pathname === '/' && firstRun())) {
  const hero = document.getElementById('boot-hero');
  if (hero) hero.remove();
}
