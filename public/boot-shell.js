// The boot shell's one script (src/app/index.html): only the home screen starts with the banner; other
// routes boot with the bar alone. Runs before the first paint, before the app's JavaScript.
if (location.pathname !== '/' && location.pathname !== '/pages/index/index') {
  const hero = document.getElementById('boot-hero');
  if (hero) hero.remove();
}
