// Swagger UI for /docs, configured here rather than inline, so the page's policy can forbid
// inline scripts.
"use strict";
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  // No badge from the online validator (validator.swagger.io), whatever the layout.
  validatorUrl: null,
  oauth2RedirectUrl: window.location.origin + "/docs/oauth2-redirect",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
