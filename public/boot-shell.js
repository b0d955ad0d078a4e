// The boot shell's one script (src/app/index.html): runs before the first paint, before the app's JavaScript.
// A start screen seen before (home, the project tab without a filter) paints as it was last seen, from the
// snapshot the app keeps (src/app/lib/boot-snapshot.ts: the same build, language and member); the app's
// first render replaces it with the same layout. Otherwise only the home screen starts with the banner;
// other routes boot with the bar alone.
// A true first run at the root goes to the start screen (src/app/lib/first-run.ts, the same test), so it
// boots with the bar alone too.
(function () {
  function firstRun() {
    try {
      return ['start_seen', 'isLogin', 'token', 'login_info', 'language', 'base_settings'].every((k) => localStorage.getItem(k) === null);
    } catch {
      return false;
    }
  }
  var path = location.pathname;
  var home = path === '/' || path === '/pages/index/index';

  function snapshot() {
    var key = location.search ? null : home ? 'home' : path === '/pages/project/index' ? 'projects' : null;
    if (!key || firstRun()) return null;
    try {
      var s = JSON.parse(localStorage.getItem('boot_snapshot:' + key) || 'null');
      var entry = document.querySelector('script[type="module"][src]');
      var login = JSON.parse(localStorage.getItem('login_info') || 'null');
      var member = (login && login.mem_id) || 0;
      if (!s || !entry || s.build !== entry.src || s.lang !== localStorage.getItem('language') || s.member !== member) return null;
      return s;
    } catch {
      return null;
    }
  }

  // Any first screen but home reads the offline store at once: its code (named by the build in a meta tag)
  // starts loading now, beside the app's own, rather than once the app's start asks for it. Home draws
  // without it and loads it after its first screen has settled (src/app/lib/store.ts). So do the code and
  // stylesheets of the screens a start often opens from outside (a shared project, the project tab) and
  // the rest of the texts in the stored language, which every screen but home draws with
  // (vite.config.ts, preloadFirstScreens).
  function meta(name) {
    var tag = document.querySelector('meta[name="' + name + '"]');
    return tag ? tag.content : '';
  }
  /** The files of the entry of a meta tag ("key file file|key file") named `key`. */
  function entry(name, key) {
    var found = [];
    meta(name)
      .split('|')
      .forEach(function (e) {
        var files = e.split(' ');
        if (files[0] === key) found = files.slice(1);
      });
    return found;
  }
  function language() {
    try {
      var lang = JSON.parse(localStorage.getItem('language') || 'null');
      if (lang === null) return /^zh\b/i.test(navigator.language) ? 'zh-Hans' : 'en';
      return lang === 'cn' || lang === 'zh-Hans' ? 'zh-Hans' : 'en';
    } catch {
      return 'en';
    }
  }
  function preload(href) {
    if (!href) return;
    var link = document.createElement('link');
    if (/\.css$/.test(href)) {
      link.rel = 'preload';
      link.as = 'style';
    } else link.rel = 'modulepreload';
    link.href = href;
    link.crossOrigin = '';
    document.head.appendChild(link);
  }
  if (!home) {
    // A screen named in screen-code lists everything of its own, the store's code too when it reads it.
    var screen = entry('canopy:screen-code', path);
    (screen.length ? screen : meta('canopy:store-code').split(' ')).forEach(preload);
    entry('canopy:texts-code', language()).forEach(preload);
  }

  var shell = document.getElementById('boot-shell');
  var s = shell && snapshot();
  if (s) {
    // The snapshot's markup goes in once the page's own stylesheets (a lazy screen's, such as the project
    // tab's) have loaded. Added from here, after the parser has passed <head>, they do not hold the first
    // paint back: painted at once, the markup would show unstyled until they arrive (on a cold HTTP cache)
    // and then move into place, a layout shift. Meanwhile the plain shell shows; the markup replaces it
    // whole, so nothing on screen moves. A sheet that fails leaves the plain shell to React.
    var pending = 0;
    var failed = false;
    var paint = function () {
      if (failed || !shell.isConnected) return; // React's first render has taken the shell's place
      document.documentElement.lang = s.htmlLang;
      shell.innerHTML = s.html;
      shell.setAttribute('data-snapshot', '');
    };
    var linked = {};
    document.querySelectorAll('link[rel="stylesheet"]').forEach(function (l) {
      linked[new URL(l.href).pathname] = true;
    });
    s.css.forEach(function (href) {
      if (linked[href]) return;
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.crossOrigin = '';
      link.onload = function () {
        if (--pending === 0) paint();
      };
      link.onerror = function () {
        failed = true;
      };
      pending++;
      document.head.appendChild(link);
    });
    if (pending === 0) {
      paint();
      return;
    }
  }
  if (!home || (path === '/' && firstRun())) {
    var hero = document.getElementById('boot-hero');
    if (hero) hero.remove();
  }
})();
