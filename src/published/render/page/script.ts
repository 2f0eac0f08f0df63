/**
 * The two inline scripts of published pages; pages work without them. THEME_SCRIPT (in the head,
 * only when the theme is toggleable) applies the visitor's stored theme before the first paint.
 * SITE_SCRIPT (end of body) shows the theme toggle and wires it, and turns tab groups rendered
 * as stacked panels into working ARIA tabs (click, arrow keys, Home/End), shows the copy button
 * of code blocks (the clipboard API, else a selection and `copy`), and makes the small-screen
 * "Menu" link open the navigation in place, as a drawer over the page (no jump to the sidebar at
 * the bottom; Escape, a click outside or its close button shut it). SCRIPT_HASHES are
 * their CSP `script-src` sources, for a Content-Security-Policy without 'unsafe-inline'.
 */
import { createHash } from 'node:crypto';

export const THEME_STORAGE_KEY = 'quire-theme';

export const THEME_SCRIPT = `try{var t=localStorage.getItem("${THEME_STORAGE_KEY}");if(t==="light"||t==="dark")document.documentElement.setAttribute("data-theme",t)}catch(e){}`;

export const SITE_SCRIPT = `(function(){
var d=document,root=d.documentElement;
var toggle=d.querySelector(".theme-toggle");
if(toggle&&window.matchMedia){
var mq=window.matchMedia("(prefers-color-scheme: dark)");
var current=function(){return root.getAttribute("data-theme")||(mq.matches?"dark":"light")};
var sync=function(){toggle.setAttribute("aria-pressed",String(current()==="dark"))};
toggle.hidden=false;sync();
toggle.addEventListener("click",function(){var next=current()==="dark"?"light":"dark";root.setAttribute("data-theme",next);try{localStorage.setItem("${THEME_STORAGE_KEY}",next)}catch(e){}sync()});
if(mq.addEventListener)mq.addEventListener("change",sync);
}
Array.prototype.forEach.call(d.querySelectorAll("[data-tabs]"),function(group){
var list=group.querySelector("[role=tablist]");if(!list)return;
var tabs=Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));if(!tabs.length)return;
var select=function(tab,focus){tabs.forEach(function(t){var on=t===tab;t.setAttribute("aria-selected",String(on));t.tabIndex=on?0:-1;var panel=d.getElementById(t.getAttribute("aria-controls"));if(panel)panel.hidden=!on});if(focus)tab.focus()};
list.hidden=false;group.classList.add("tabs-enhanced");
select(tabs.filter(function(t){return t.getAttribute("aria-selected")==="true"})[0]||tabs[0],false);
tabs.forEach(function(tab,i){
tab.addEventListener("click",function(){select(tab,false)});
tab.addEventListener("keydown",function(e){var k=e.key,n=k==="ArrowRight"?i+1:k==="ArrowLeft"?i-1:k==="Home"?0:k==="End"?tabs.length-1:null;if(n===null)return;e.preventDefault();select(tabs[(n+tabs.length)%tabs.length],true)});
});
});
Array.prototype.forEach.call(d.querySelectorAll(".code-copy"),function(b){
var fig=b.closest(".code-block"),code=fig&&fig.querySelector("pre code");if(!code)return;
var label=b.textContent,done=function(){b.textContent=b.getAttribute("data-copied")||label;setTimeout(function(){b.textContent=label},1500)};
var fallback=function(){var r=d.createRange(),s=window.getSelection();r.selectNodeContents(code);s.removeAllRanges();s.addRange(r);try{if(d.execCommand("copy"))done()}catch(e){}};
b.hidden=false;
b.addEventListener("click",function(){var text=code.textContent;if(navigator.clipboard&&navigator.clipboard.writeText)navigator.clipboard.writeText(text).then(done,fallback);else fallback()});
});
var menu=d.querySelector(".menu-link"),bar=d.querySelector(".sidebar");
if(menu&&bar){
var setOpen=function(on){root.classList.toggle("nav-open",on);menu.setAttribute("aria-expanded",String(on));if(on){var first=bar.querySelector("a,summary,button");if(first)first.focus({preventScroll:true})}};
root.classList.add("menu-enhanced");menu.setAttribute("role","button");menu.setAttribute("aria-expanded","false");menu.setAttribute("aria-controls",bar.id);
menu.addEventListener("click",function(e){e.preventDefault();setOpen(!root.classList.contains("nav-open"))});
var close=d.createElement("button");close.type="button";close.className="menu-close";close.textContent="\u2715";close.setAttribute("aria-label",menu.getAttribute("data-close")||"Close");
close.addEventListener("click",function(){setOpen(false);menu.focus({preventScroll:true})});bar.insertBefore(close,bar.firstChild);
d.addEventListener("keydown",function(e){if(e.key==="Escape"&&root.classList.contains("nav-open")){setOpen(false);menu.focus({preventScroll:true})}});
d.addEventListener("click",function(e){if(root.classList.contains("nav-open")&&!bar.contains(e.target)&&!menu.contains(e.target))setOpen(false)});
}
})();`;

const hash = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;

export const SCRIPT_HASHES: readonly string[] = [hash(THEME_SCRIPT), hash(SITE_SCRIPT)];
