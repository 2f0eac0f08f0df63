/**
 * The interface's own words (labels, landmarks, error titles), by site locale. Locales are the
 * customization's `internationalization.locale` values; anything else falls back to English
 * through its language (`pt-BR` → `pt-br`, `fr-CA` → `fr`).
 */
export type UiStrings = {
  skipToContent: string;
  search: string;
  searchPlaceholder: string;
  siteLinks: string;
  sections: string;
  variants: string;
  pages: string;
  menu: string;
  showSubpages: string;
  onThisPage: string;
  pagination: string;
  previous: string;
  next: string;
  toggleTheme: string;
  announcement: string;
  footer: string;
  info: string;
  warning: string;
  danger: string;
  success: string;
  fileUnavailable: string;
  results: (count: number, query: string) => string;
  noResults: (query: string) => string;
  enterQuery: string;
  unauthorized: string;
  forbidden: string;
  notFound: string;
  home: string;
};

const en: UiStrings = {
  skipToContent: 'Skip to content',
  search: 'Search',
  searchPlaceholder: 'Search…',
  siteLinks: 'Site links',
  sections: 'Sections',
  variants: 'Versions',
  pages: 'Pages',
  menu: 'Menu',
  showSubpages: 'Show subpages',
  onThisPage: 'On this page',
  pagination: 'Previous and next pages',
  previous: 'Previous',
  next: 'Next',
  toggleTheme: 'Dark theme',
  announcement: 'Announcement',
  footer: 'Footer',
  info: 'Info',
  warning: 'Warning',
  danger: 'Danger',
  success: 'Success',
  fileUnavailable: 'File unavailable',
  results: (n, q) => `${n} ${n === 1 ? 'result' : 'results'} for “${q}”`,
  noResults: (q) => `No results for “${q}”`,
  enterQuery: 'Type words to search this site.',
  unauthorized: 'Sign-in required',
  forbidden: 'Access denied',
  notFound: 'Page not found',
  home: 'Go to the home page',
};

const fr: UiStrings = {
  skipToContent: 'Aller au contenu',
  search: 'Rechercher',
  searchPlaceholder: 'Rechercher…',
  siteLinks: 'Liens du site',
  sections: 'Sections',
  variants: 'Versions',
  pages: 'Pages',
  menu: 'Menu',
  showSubpages: 'Afficher les sous-pages',
  onThisPage: 'Sur cette page',
  pagination: 'Pages précédente et suivante',
  previous: 'Précédent',
  next: 'Suivant',
  toggleTheme: 'Thème sombre',
  announcement: 'Annonce',
  footer: 'Pied de page',
  info: 'Info',
  warning: 'Attention',
  danger: 'Danger',
  success: 'Succès',
  fileUnavailable: 'Fichier indisponible',
  results: (n, q) => `${n} ${n > 1 ? 'résultats' : 'résultat'} pour « ${q} »`,
  noResults: (q) => `Aucun résultat pour « ${q} »`,
  enterQuery: 'Saisissez des mots pour chercher dans ce site.',
  unauthorized: 'Connexion requise',
  forbidden: 'Accès refusé',
  notFound: 'Page introuvable',
  home: 'Aller à l’accueil',
};

const es: UiStrings = {
  skipToContent: 'Ir al contenido',
  search: 'Buscar',
  searchPlaceholder: 'Buscar…',
  siteLinks: 'Enlaces del sitio',
  sections: 'Secciones',
  variants: 'Versiones',
  pages: 'Páginas',
  menu: 'Menú',
  showSubpages: 'Mostrar subpáginas',
  onThisPage: 'En esta página',
  pagination: 'Páginas anterior y siguiente',
  previous: 'Anterior',
  next: 'Siguiente',
  toggleTheme: 'Tema oscuro',
  announcement: 'Anuncio',
  footer: 'Pie de página',
  info: 'Información',
  warning: 'Advertencia',
  danger: 'Peligro',
  success: 'Éxito',
  fileUnavailable: 'Archivo no disponible',
  results: (n, q) => `${n} ${n === 1 ? 'resultado' : 'resultados'} para «${q}»`,
  noResults: (q) => `Sin resultados para «${q}»`,
  enterQuery: 'Escriba palabras para buscar en este sitio.',
  unauthorized: 'Inicio de sesión requerido',
  forbidden: 'Acceso denegado',
  notFound: 'Página no encontrada',
  home: 'Ir a la página de inicio',
};

const de: UiStrings = {
  skipToContent: 'Zum Inhalt springen',
  search: 'Suchen',
  searchPlaceholder: 'Suchen…',
  siteLinks: 'Website-Links',
  sections: 'Bereiche',
  variants: 'Versionen',
  pages: 'Seiten',
  menu: 'Menü',
  showSubpages: 'Unterseiten anzeigen',
  onThisPage: 'Auf dieser Seite',
  pagination: 'Vorherige und nächste Seite',
  previous: 'Zurück',
  next: 'Weiter',
  toggleTheme: 'Dunkles Design',
  announcement: 'Ankündigung',
  footer: 'Fußzeile',
  info: 'Info',
  warning: 'Warnung',
  danger: 'Gefahr',
  success: 'Erfolg',
  fileUnavailable: 'Datei nicht verfügbar',
  results: (n, q) => `${n} ${n === 1 ? 'Ergebnis' : 'Ergebnisse'} für „${q}“`,
  noResults: (q) => `Keine Ergebnisse für „${q}“`,
  enterQuery: 'Geben Sie Suchbegriffe ein.',
  unauthorized: 'Anmeldung erforderlich',
  forbidden: 'Zugriff verweigert',
  notFound: 'Seite nicht gefunden',
  home: 'Zur Startseite',
};

const nl: UiStrings = {
  skipToContent: 'Naar de inhoud',
  search: 'Zoeken',
  searchPlaceholder: 'Zoeken…',
  siteLinks: 'Sitelinks',
  sections: 'Secties',
  variants: 'Versies',
  pages: 'Pagina’s',
  menu: 'Menu',
  showSubpages: 'Subpagina’s tonen',
  onThisPage: 'Op deze pagina',
  pagination: 'Vorige en volgende pagina',
  previous: 'Vorige',
  next: 'Volgende',
  toggleTheme: 'Donker thema',
  announcement: 'Aankondiging',
  footer: 'Voettekst',
  info: 'Info',
  warning: 'Waarschuwing',
  danger: 'Gevaar',
  success: 'Gelukt',
  fileUnavailable: 'Bestand niet beschikbaar',
  results: (n, q) => `${n} ${n === 1 ? 'resultaat' : 'resultaten'} voor ‘${q}’`,
  noResults: (q) => `Geen resultaten voor ‘${q}’`,
  enterQuery: 'Typ woorden om deze site te doorzoeken.',
  unauthorized: 'Aanmelden vereist',
  forbidden: 'Toegang geweigerd',
  notFound: 'Pagina niet gevonden',
  home: 'Naar de startpagina',
};

const no: UiStrings = {
  skipToContent: 'Gå til innhold',
  search: 'Søk',
  searchPlaceholder: 'Søk…',
  siteLinks: 'Lenker',
  sections: 'Seksjoner',
  variants: 'Versjoner',
  pages: 'Sider',
  menu: 'Meny',
  showSubpages: 'Vis undersider',
  onThisPage: 'På denne siden',
  pagination: 'Forrige og neste side',
  previous: 'Forrige',
  next: 'Neste',
  toggleTheme: 'Mørkt tema',
  announcement: 'Kunngjøring',
  footer: 'Bunntekst',
  info: 'Info',
  warning: 'Advarsel',
  danger: 'Fare',
  success: 'Vellykket',
  fileUnavailable: 'Filen er ikke tilgjengelig',
  results: (n, q) => `${n} ${n === 1 ? 'treff' : 'treff'} for «${q}»`,
  noResults: (q) => `Ingen treff for «${q}»`,
  enterQuery: 'Skriv inn ord for å søke på nettstedet.',
  unauthorized: 'Innlogging kreves',
  forbidden: 'Ingen tilgang',
  notFound: 'Fant ikke siden',
  home: 'Gå til forsiden',
};

const ptBr: UiStrings = {
  skipToContent: 'Pular para o conteúdo',
  search: 'Pesquisar',
  searchPlaceholder: 'Pesquisar…',
  siteLinks: 'Links do site',
  sections: 'Seções',
  variants: 'Versões',
  pages: 'Páginas',
  menu: 'Menu',
  showSubpages: 'Mostrar subpáginas',
  onThisPage: 'Nesta página',
  pagination: 'Páginas anterior e seguinte',
  previous: 'Anterior',
  next: 'Próximo',
  toggleTheme: 'Tema escuro',
  announcement: 'Aviso',
  footer: 'Rodapé',
  info: 'Informação',
  warning: 'Atenção',
  danger: 'Perigo',
  success: 'Sucesso',
  fileUnavailable: 'Arquivo indisponível',
  results: (n, q) => `${n} ${n === 1 ? 'resultado' : 'resultados'} para “${q}”`,
  noResults: (q) => `Nenhum resultado para “${q}”`,
  enterQuery: 'Digite palavras para pesquisar neste site.',
  unauthorized: 'Login necessário',
  forbidden: 'Acesso negado',
  notFound: 'Página não encontrada',
  home: 'Ir para a página inicial',
};

const ru: UiStrings = {
  skipToContent: 'Перейти к содержимому',
  search: 'Поиск',
  searchPlaceholder: 'Поиск…',
  siteLinks: 'Ссылки сайта',
  sections: 'Разделы',
  variants: 'Версии',
  pages: 'Страницы',
  menu: 'Меню',
  showSubpages: 'Показать подстраницы',
  onThisPage: 'На этой странице',
  pagination: 'Предыдущая и следующая страницы',
  previous: 'Назад',
  next: 'Далее',
  toggleTheme: 'Тёмная тема',
  announcement: 'Объявление',
  footer: 'Подвал',
  info: 'Информация',
  warning: 'Предупреждение',
  danger: 'Опасность',
  success: 'Успех',
  fileUnavailable: 'Файл недоступен',
  results: (n, q) => `Результаты по запросу «${q}»: ${n}`,
  noResults: (q) => `Ничего не найдено по запросу «${q}»`,
  enterQuery: 'Введите слова для поиска по сайту.',
  unauthorized: 'Требуется вход',
  forbidden: 'Доступ запрещён',
  notFound: 'Страница не найдена',
  home: 'На главную',
};

const ja: UiStrings = {
  skipToContent: 'コンテンツへスキップ',
  search: '検索',
  searchPlaceholder: '検索…',
  siteLinks: 'サイトのリンク',
  sections: 'セクション',
  variants: 'バージョン',
  pages: 'ページ',
  menu: 'メニュー',
  showSubpages: 'サブページを表示',
  onThisPage: 'このページの内容',
  pagination: '前後のページ',
  previous: '前へ',
  next: '次へ',
  toggleTheme: 'ダークテーマ',
  announcement: 'お知らせ',
  footer: 'フッター',
  info: '情報',
  warning: '警告',
  danger: '危険',
  success: '成功',
  fileUnavailable: 'ファイルを利用できません',
  results: (n, q) => `「${q}」の検索結果: ${n} 件`,
  noResults: (q) => `「${q}」に一致する結果はありません`,
  enterQuery: 'このサイトを検索する語句を入力してください。',
  unauthorized: 'ログインが必要です',
  forbidden: 'アクセスが拒否されました',
  notFound: 'ページが見つかりません',
  home: 'ホームへ移動',
};

const zh: UiStrings = {
  skipToContent: '跳到内容',
  search: '搜索',
  searchPlaceholder: '搜索…',
  siteLinks: '站点链接',
  sections: '栏目',
  variants: '版本',
  pages: '页面',
  menu: '菜单',
  showSubpages: '显示子页面',
  onThisPage: '本页内容',
  pagination: '上一页和下一页',
  previous: '上一页',
  next: '下一页',
  toggleTheme: '深色主题',
  announcement: '公告',
  footer: '页脚',
  info: '信息',
  warning: '警告',
  danger: '危险',
  success: '成功',
  fileUnavailable: '文件不可用',
  results: (n, q) => `“${q}”的搜索结果：${n} 条`,
  noResults: (q) => `没有与“${q}”匹配的结果`,
  enterQuery: '输入关键词以搜索本站。',
  unauthorized: '需要登录',
  forbidden: '拒绝访问',
  notFound: '找不到页面',
  home: '返回首页',
};

const LOCALES: Record<string, UiStrings> = { en, fr, es, de, nl, no, 'pt-br': ptBr, pt: ptBr, ru, ja, zh, nb: no };

export function stringsFor(lang: string | undefined): UiStrings {
  const tag = (lang ?? '').toLowerCase();
  return LOCALES[tag] ?? LOCALES[tag.split('-')[0]] ?? en;
}
